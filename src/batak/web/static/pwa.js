// Installable as an app: the service worker (sw.js) keeps the client's own files for opening
// without a network; the game itself always needs the server.
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* not installable here */ });
}

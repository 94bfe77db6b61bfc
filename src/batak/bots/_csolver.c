/* Compiled twin of batak.bots.solver: a double-dummy solver for Batak.
 *
 * The search is the Python reference's (``_Solver`` in solver.py): a boolean search "can the side
 * take at least ``need`` more tricks?" with alpha-beta on a zero window, driven by a search on
 * ``need``, over the same compulsory-play rules.  What makes it fast, beyond being C:
 *
 *   - a fixed-size transposition table at trick boundaries whose keys use RELATIVE ranks: each
 *     remaining card is replaced by its rank among the remaining cards of its suit, so positions
 *     that differ only in which low cards have gone share an entry.  This is exact in Batak: from
 *     a trick boundary on, following suit, overtaking, trumping, overtrumping and who wins a trick
 *     depend only on the order of the cards still in play within each suit.
 *   - the best lead found at an entry is stored (as suit + relative rank) and tried first later;
 *     the entry is prefetched while the bounds below are worked out, and positions with fewer
 *     than TT_MIN_LEFT tricks left skip the table (searching them beats a cache miss);
 *   - cards that are equivalent (no other player's card, nor a card of the current trick, lies
 *     between them) are searched once;
 *   - move ordering: when the trick is held by the other side, cheapest winning card first, else
 *     lowest card first; leads: sure winners first, then low cards;
 *   - cheap exact bounds: the side cannot take more tricks than remain; the leader's quick
 *     tricks (top trumps, then top cards of the other suits that nobody can ruff); and a team's
 *     trumps above all the other team's trumps, each of which wins the trick it falls in.
 *
 * No global mutable state: everything lives in a per-call (or per-Solver-object) context, and the
 * GIL is released during the search, so calls from several threads run in parallel.
 *
 * Cards are 0..51 = suit * 13 + rank (rank 0 is the two, 12 the ace); hands are 52-bit masks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ bit helpers (portable) */
/* Without a popcnt instruction enabled, __builtin_popcountll calls a slow library routine: use
 * the classic bit-twiddling count instead. */
static inline int popc_swar(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

#if defined(__GNUC__) || defined(__clang__)
#ifdef __POPCNT__
#define POPC(x) __builtin_popcountll(x)
#else
#define POPC(x) popc_swar(x)
#endif
#define CTZ(x) __builtin_ctzll(x)
#define HIBIT(x) (63 - __builtin_clzll(x))
#else
#define POPC(x) popc_swar(x)
static int CTZ(uint64_t x) {
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}
static int HIBIT(uint64_t x) {
    int n = -1;
    while (x) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

#define SUIT_BITS 0x1FFFULL
#define DECK ((1ULL << 52) - 1)

static const uint64_t SUIT_MASK[4] = {SUIT_BITS, SUIT_BITS << 13, SUIT_BITS << 26, SUIT_BITS << 39};

/* flags, as documented in solve() */
#define F_OVERTAKE 1
#define F_OVERTAKE_AFTER_RUFF 2
#define F_OVERTRUMP 4
#define F_TRUMP_IF_CANNOT 8
#define F_LEAD_RESTRICTED 16
#define F_BREAK_ON_LEAD 32
#define F_ALL 63

/* the most cards a hand holds: 52 cards over at least 3 equal hands */
#define MAXHAND 18

/* Cards strictly above ``idx`` (0..51), any suit: the caller masks the suit. */
static inline uint64_t above(int idx) { return ~((2ULL << idx) - 1); }

/* ------------------------------------------------------------------ transposition table */
typedef struct {
    uint64_t k0, k1;  /* the relative-rank key; k0 == 0 never occurs for a real key */
    uint32_t gen;     /* entries of another generation are empty */
    uint8_t lo, hi;   /* bounds on the side's tricks from here */
    uint8_t best;     /* best lead: suit << 4 | relative rank, 0xFF if none */
    uint8_t left;     /* tricks left at this entry (replacement: keep the big subtrees) */
} Entry;

#define WAYS 4

/* positions with fewer tricks left are searched without the table (cheaper than a cache miss) */
#ifndef TT_MIN_LEFT
#define TT_MIN_LEFT 3
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

typedef struct {
    Entry *slots;
    uint64_t bucket_mask; /* number of buckets - 1 */
    uint32_t gen;
    int bits;
} Table;

static int table_init(Table *t, int bits) {
    size_t entries = (size_t)1 << bits;
    t->slots = (Entry *)calloc(entries, sizeof(Entry));
    if (!t->slots) return -1;
    t->bucket_mask = (uint64_t)(entries / WAYS) - 1;
    t->gen = 1;
    t->bits = bits;
    return 0;
}

static void table_free(Table *t) {
    free(t->slots);
    t->slots = NULL;
}

static inline uint64_t mix(uint64_t k0, uint64_t k1) {
    uint64_t h = k0 * 0x9E3779B97F4A7C15ULL ^ (k1 + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

/* ------------------------------------------------------------------ search context */
typedef struct {
    int n;
    int trump;      /* suit 0..3, or -1 */
    int flags;
    uint64_t tmask; /* the trump suit's cards (0 without trump) */
    int on_side[4];
    uint64_t hands[4];
    Table *tt;
    uint64_t nodes;
} Ctx;

typedef struct {
    uint64_t cards; /* cards in the trick so far */
    int lead;       /* suit led */
    int hi_led;     /* highest card of the led suit */
    int hi_trump;   /* highest trump, -1 if none */
    int ruffed;     /* a trump was played on another suit */
    int winner;     /* seat holding the trick */
    int broken;
} Trick;

/* ------------------------------------------------------------------ legal cards */
static inline uint64_t lead_mask(const Ctx *c, uint64_t h, int broken) {
    if ((c->flags & F_LEAD_RESTRICTED) && !broken) {
        uint64_t other = h & ~c->tmask;
        if (other) return other;
    }
    return h;
}

static inline uint64_t follow_mask(const Ctx *c, uint64_t h, const Trick *t) {
    uint64_t hs = h & SUIT_MASK[t->lead];
    if (hs) {
        if ((c->flags & F_OVERTAKE) &&
            (t->lead == c->trump || !t->ruffed || (c->flags & F_OVERTAKE_AFTER_RUFF))) {
            uint64_t higher = hs & above(t->hi_led);
            if (higher) return higher;
        }
        return hs;
    }
    uint64_t ht = h & c->tmask;
    if (ht) {
        if (t->ruffed && (c->flags & F_OVERTRUMP)) {
            uint64_t higher = ht & above(t->hi_trump);
            if (higher) return higher;
            if (!(c->flags & F_TRUMP_IF_CANNOT)) return h;
        }
        return ht;
    }
    return h;
}

/* The trick after ``seat`` plays ``card`` (not the lead). */
static inline Trick play_follow(const Ctx *c, const Trick *t, int seat, int card) {
    Trick r = *t;
    int suit = card / 13;
    r.cards |= 1ULL << card;
    if (suit == t->lead) {
        if (card > t->hi_led) {
            r.hi_led = card;
            if (!t->ruffed) r.winner = seat;
            if (suit == c->trump) r.hi_trump = card;
        }
    } else if (suit == c->trump) {
        r.ruffed = 1;
        r.broken = 1;
        if (card > t->hi_trump) {
            r.hi_trump = card;
            r.winner = seat;
        }
    }
    return r;
}

static inline Trick play_lead(const Ctx *c, int leader, int card, int broken) {
    Trick r;
    int suit = card / 13;
    r.cards = 1ULL << card;
    r.lead = suit;
    r.hi_led = card;
    r.hi_trump = suit == c->trump ? card : -1;
    r.ruffed = 0;
    r.winner = leader;
    r.broken = broken || (suit == c->trump && (c->flags & F_BREAK_ON_LEAD));
    return r;
}

/* One card of each run of equivalent legal cards (the highest of the run), high to low. */
static int distinct(uint64_t legal, uint64_t others, int *out) {
    int k = 0, prev = -1;
    while (legal) {
        int cd = HIBIT(legal);
        legal &= ~(1ULL << cd);
        if (prev >= 0 && prev / 13 == cd / 13) {
            uint64_t between = ((1ULL << prev) - 1) & ~((2ULL << cd) - 1);
            if (!(others & between)) {
                prev = cd;
                continue;
            }
        }
        out[k++] = cd;
        prev = cd;
    }
    return k;
}

/* The highest card of the run of equivalent cards that ``card`` belongs to (in ``h``). */
static int group_top(uint64_t h, uint64_t others, int card) {
    uint64_t suit = SUIT_MASK[card / 13];
    uint64_t up = others & suit & above(card);
    uint64_t own = h & suit & above(card);
    if (up) own &= (1ULL << CTZ(up)) - 1;
    /* own cards above ``card`` and below the next other card: the run goes up to the highest */
    return own ? HIBIT(own) : card;
}

static void sort_by_score(int *cards, int *score, int k) {
    for (int i = 1; i < k; i++) {
        int c = cards[i], s = score[i], j = i - 1;
        while (j >= 0 && score[j] < s) {
            cards[j + 1] = cards[j];
            score[j + 1] = score[j];
            j--;
        }
        cards[j + 1] = c;
        score[j + 1] = s;
    }
}

/* ------------------------------------------------------------------ bounds */

/* Tricks the leader's team surely takes from this trick boundary on, by one plan: the leader
 * first leads its run of top trumps (if it may lead trumps; every other player must follow with a
 * trump while it holds one, and cannot beat it), then cashes its runs of top cards in the other
 * suits.  A suit's run counts only while every other player that may still hold a trump also
 * holds a card of that suit to follow with (a player void in the suit with a trump must ruff;
 * one without trumps cannot hurt, whatever it discards). */
static int quick_tricks(const Ctx *c, int leader, int broken, uint64_t all) {
    uint64_t h = c->hands[leader];
    int qt = 0;
    uint64_t ruffers[4];
    int nr = 0;
    if (c->trump >= 0 && (all & c->tmask)) {
        int k = 0;
        int can_lead = !(c->flags & F_LEAD_RESTRICTED) || broken || !(h & ~c->tmask);
        if (can_lead) {
            uint64_t tr = all & c->tmask;
            while (tr) {
                int top = HIBIT(tr);
                if (!(h >> top & 1)) break;
                k++;
                tr &= ~(1ULL << top);
            }
        }
        qt = k;
        for (int s = 0; s < c->n; s++)
            if (s != leader && POPC(c->hands[s] & c->tmask) > k) ruffers[nr++] = c->hands[s];
    }
    for (int s = 0; s < 4; s++) {
        if (s == c->trump) continue;
        uint64_t u = all & SUIT_MASK[s];
        int m = 0;
        while (u) {
            int top = HIBIT(u);
            if (!(h >> top & 1)) break;
            m++;
            u &= ~(1ULL << top);
        }
        for (int r = 0; r < nr && m; r++) {
            int len = POPC(ruffers[r] & SUIT_MASK[s]);
            if (len < m) m = len;
        }
        qt += m;
    }
    return qt;
}

/* Tricks a team surely takes whoever leads: a trump higher than every trump of the other team
 * wins the trick it is played in (or a partner's card does), and one player's cards go to
 * different tricks, so the team takes at least as many tricks as any one of its players holds
 * such trumps. */
static int sure_trumps(const Ctx *c, int team) {
    if (c->trump < 0) return 0;
    uint64_t opp = 0;
    for (int s = 0; s < c->n; s++)
        if (c->on_side[s] != team) opp |= c->hands[s];
    opp &= c->tmask;
    uint64_t over = opp ? c->tmask & above(HIBIT(opp)) : c->tmask;
    int best = 0;
    for (int s = 0; s < c->n; s++) {
        if (c->on_side[s] != team) continue;
        int m = POPC(c->hands[s] & over);
        if (m > best) best = m;
    }
    return best;
}

/* ------------------------------------------------------------------ keys */

/* The relative-rank key of a trick boundary: per suit, the owners of its remaining cards from
 * the lowest up (2 bits each) and their count; the leader; broken if it can still matter. */
static void make_key(const Ctx *c, int leader, int broken, uint64_t all, uint64_t *k0,
                     uint64_t *k1) {
    uint64_t b0 = c->hands[1] | c->hands[3];
    uint64_t b1 = c->hands[2] | c->hands[3];
    uint64_t code[4], cnt[4];
    for (int s = 0; s < 4; s++) {
        int sh = 13 * s;
        uint64_t u = (all >> sh) & SUIT_BITS;
        uint64_t x0 = (b0 >> sh) & u, x1 = (b1 >> sh) & u;
        uint64_t v = 0;
        int j = 0;
        while (u) {
            int b = CTZ(u);
            u &= u - 1;
            v |= (((x0 >> b) & 1) | (((x1 >> b) & 1) << 1)) << (2 * j);
            j++;
        }
        code[s] = v;
        cnt[s] = (uint64_t)j;
    }
    int br = broken && (c->flags & F_LEAD_RESTRICTED) && (all & c->tmask);
    *k0 = code[0] | code[1] << 26 | cnt[0] << 52 | cnt[1] << 56 | (uint64_t)leader << 60 |
          (uint64_t)br << 62 | 1ULL << 63;
    *k1 = code[2] | code[3] << 26 | cnt[2] << 52 | cnt[3] << 56;
}

/* Relative rank (0 = lowest remaining) of ``card`` among ``all``'s cards of its suit. */
static inline int rel_of(uint64_t all, int card) {
    return POPC(all & SUIT_MASK[card / 13] & ((1ULL << card) - 1));
}

/* The card of relative rank ``rel`` in ``suit`` among ``all``, or -1. */
static inline int card_of_rel(uint64_t all, int suit, int rel) {
    uint64_t u = all & SUIT_MASK[suit];
    for (int i = 0; i < rel && u; i++) u &= u - 1;
    return u ? CTZ(u) : -1;
}

/* ------------------------------------------------------------------ search */
static int at_least(Ctx *c, int leader, int broken, int need);

static int follow(Ctx *c, int leader, int i, const Trick *t, int need) {
    int n = c->n;
    if (i == n) return at_least(c, t->winner, t->broken, need - c->on_side[t->winner]);
    int seat = (leader + i) % n;
    uint64_t h = c->hands[seat];
    uint64_t legal = follow_mask(c, h, t);
    uint64_t others = t->cards;
    for (int s = 0; s < n; s++)
        if (s != seat) others |= c->hands[s];
    int maximize = c->on_side[seat];
    int cards[MAXHAND], score[MAXHAND];
    int k = distinct(legal, others, cards);
    Trick next[MAXHAND];
    int ours = c->on_side[t->winner] == maximize;
    for (int j = 0; j < k; j++) {
        int cd = cards[j];
        next[j] = play_follow(c, t, seat, cd);
        int rank = cd % 13;
        /* our side holds the trick: lowest first; else the cheapest card that takes it, then
         * the lowest of the rest */
        if (ours)
            score[j] = -rank;
        else
            score[j] = (next[j].winner == seat ? 100 : 0) - rank;
        score[j] = score[j] * 64 + j; /* stable: keep the index to find next[] again */
    }
    sort_by_score(cards, score, k);
    for (int j = 0; j < k; j++) {
        int cd = cards[j];
        int idx = score[j] & 63;
        c->hands[seat] = h & ~(1ULL << cd);
        int ok = follow(c, leader, i + 1, &next[idx], need);
        c->hands[seat] = h;
        if (ok == maximize) return ok;
    }
    return !maximize;
}

/* The last trick: every card is forced. */
static int last_trick(Ctx *c, int leader, int broken) {
    Trick t = play_lead(c, leader, CTZ(c->hands[leader]), broken);
    for (int i = 1; i < c->n; i++) {
        int seat = (leader + i) % c->n;
        t = play_follow(c, &t, seat, CTZ(c->hands[seat]));
    }
    return c->on_side[t.winner];
}

static int lead(Ctx *c, int leader, int broken, int need, uint64_t all, int hint, int *best) {
    uint64_t h = c->hands[leader];
    uint64_t legal = lead_mask(c, h, broken);
    uint64_t others = all & ~h;
    int maximize = c->on_side[leader];
    int team = c->on_side[leader];
    int cards[MAXHAND], score[MAXHAND];
    int k = distinct(legal, others, cards);
    /* can an opponent of the leader ruff a suit?  (void in it and holding a trump) */
    int ruffable[4] = {0, 0, 0, 0};
    if (c->trump >= 0) {
        for (int s = 0; s < c->n; s++) {
            if (c->on_side[s] == team || !(c->hands[s] & c->tmask)) continue;
            for (int su = 0; su < 4; su++)
                if (!(c->hands[s] & SUIT_MASK[su])) ruffable[su] = 1;
        }
    }
    for (int j = 0; j < k; j++) {
        int cd = cards[j], suit = cd / 13, rank = cd % 13;
        int top = HIBIT(all & SUIT_MASK[suit]) == cd;
        int sc;
        if (cd == hint)
            sc = 1000; /* the best lead stored in the table */
        else if (top && (suit == c->trump || !ruffable[suit]))
            sc = 500 + (suit == c->trump ? 0 : 20) + rank; /* a sure winner: side suits first */
        else
            sc = 100 - rel_of(all, cd); /* else the lowest (relative rank) first */
        score[j] = sc;
    }
    sort_by_score(cards, score, k);
    for (int j = 0; j < k; j++) {
        int cd = cards[j];
        c->hands[leader] = h & ~(1ULL << cd);
        Trick t = play_lead(c, leader, cd, broken);
        int ok = follow(c, leader, 1, &t, need);
        c->hands[leader] = h;
        if (ok == maximize) {
            *best = cd;
            return ok;
        }
    }
    return !maximize;
}

static int at_least(Ctx *c, int leader, int broken, int need) {
    if (need <= 0) return 1;
    int left = POPC(c->hands[leader]);
    if (need > left) return 0;
    if (left == 1) return last_trick(c, leader, broken); /* need == 1 */
    uint64_t all = 0;
    for (int s = 0; s < c->n; s++) all |= c->hands[s];
    /* the table is worth its memory traffic only above the last few tricks */
    int use_tt = left >= TT_MIN_LEFT;
    uint64_t k0 = 0, k1 = 0;
    Table *tt = c->tt;
    Entry *bucket = NULL;
    if (use_tt) {
        make_key(c, leader, broken, all, &k0, &k1);
        bucket = tt->slots + (mix(k0, k1) & tt->bucket_mask) * WAYS;
        PREFETCH(bucket); /* while the bounds are worked out */
    }
    int qt = quick_tricks(c, leader, broken, all);
    int ours = sure_trumps(c, 1), theirs = sure_trumps(c, 0);
    if (c->on_side[leader]) {
        if (qt > ours) ours = qt;
    } else if (qt > theirs) {
        theirs = qt;
    }
    if (ours >= need) return 1;
    if (need > left - theirs) return 0;
    c->nodes++;
    if (!use_tt) {
        int b = -1;
        return lead(c, leader, broken, need, all, -1, &b);
    }
    Entry *e = NULL;
    int lo = 0, hi = left, hint = -1;
    for (int w = 0; w < WAYS; w++) {
        Entry *x = bucket + w;
        if (x->gen == tt->gen && x->k0 == k0 && x->k1 == k1) {
            e = x;
            break;
        }
    }
    if (e) {
        lo = e->lo;
        hi = e->hi;
        if (lo >= need) return 1;
        if (hi < need) return 0;
        if (e->best != 0xFF) hint = card_of_rel(all, e->best >> 4, e->best & 15);
    }
    int best = -1;
    int result = lead(c, leader, broken, need, all, hint, &best);
    if (result) {
        if (need > lo) lo = need;
    } else {
        if (need - 1 < hi) hi = need - 1;
    }
    if (!e) {
        /* an empty way, else the one with the fewest tricks left */
        e = bucket;
        for (int w = 0; w < WAYS; w++) {
            Entry *x = bucket + w;
            if (x->gen != tt->gen) {
                e = x;
                break;
            }
            if (x->left < e->left) e = x;
        }
        e->k0 = k0;
        e->k1 = k1;
        e->gen = tt->gen;
        e->best = 0xFF;
    }
    e->lo = (uint8_t)lo;
    e->hi = (uint8_t)hi;
    e->left = (uint8_t)left;
    if (best >= 0) {
        int g = group_top(c->hands[leader], all & ~c->hands[leader], best);
        e->best = (uint8_t)((g / 13) << 4 | rel_of(all, g));
    }
    return result;
}

/* ------------------------------------------------------------------ one solve */
typedef struct {
    uint64_t hands[4];
    int n, leader, ntrick, broken, side_mask, flags, trump;
    int trick[4];
} Problem;

/* Can the side take at least ``need`` tricks from the problem's position on? */
static int probe(Ctx *c, const Problem *p, int need) {
    if (p->ntrick == 0) return at_least(c, p->leader, p->broken, need);
    Trick t = play_lead(c, p->leader, p->trick[0], p->broken);
    t.broken = p->broken; /* the position's flag already counts the lead */
    for (int i = 1; i < p->ntrick; i++) {
        t = play_follow(c, &t, (p->leader + i) % p->n, p->trick[i]);
        t.broken = p->broken;
    }
    return follow(c, p->leader, p->ntrick, &t, need);
}

static void ctx_init(Ctx *c, const Problem *p, Table *tt) {
    c->n = p->n;
    c->trump = p->trump;
    c->flags = p->flags;
    c->tmask = p->trump >= 0 ? SUIT_MASK[p->trump] : 0;
    for (int s = 0; s < 4; s++) {
        c->on_side[s] = s < p->n ? (p->side_mask >> s) & 1 : 0;
        c->hands[s] = s < p->n ? p->hands[s] : 0;
    }
    c->tt = tt;
    c->nodes = 0;
}

static int run_solve(const Problem *p, Table *tt, uint64_t *nodes) {
    Ctx c;
    ctx_init(&c, p, tt);
    int left = POPC(p->hands[p->leader]) + (p->ntrick ? 1 : 0);
    int lo = 0, hi = left;
    /* bisection with zero-window probes; the table keeps the bounds each probe learnt, so the
     * later probes mostly re-read them */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (probe(&c, p, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    if (nodes) *nodes = c.nodes;
    return lo;
}

/* ------------------------------------------------------------------ argument parsing */
static int parse_problem(PyObject *hands, int trump, int leader, PyObject *trick, int broken,
                         int side_mask, int flags, Problem *p) {
    if (!PyTuple_Check(hands) || !PyTuple_Check(trick)) {
        PyErr_SetString(PyExc_TypeError, "hands and trick must be tuples of ints");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(hands);
    if (n != 3 && n != 4) {
        PyErr_SetString(PyExc_ValueError, "hands must hold 3 or 4 masks");
        return -1;
    }
    p->n = (int)n;
    if (trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trump must be -1..3");
        return -1;
    }
    if (leader < 0 || leader >= n) {
        PyErr_SetString(PyExc_ValueError, "leader must be a seat");
        return -1;
    }
    if (flags < 0 || flags > F_ALL) {
        PyErr_SetString(PyExc_ValueError, "flags must be 0..63");
        return -1;
    }
    if (trump < 0) flags &= ~F_LEAD_RESTRICTED;
    p->trump = trump;
    p->leader = leader;
    p->broken = broken ? 1 : 0;
    p->side_mask = side_mask & ((1 << n) - 1);
    p->flags = flags;
    uint64_t seen = 0;
    for (Py_ssize_t s = 0; s < 4; s++) p->hands[s] = 0;
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *o = PyTuple_GET_ITEM(hands, s);
        unsigned long long m = PyLong_AsUnsignedLongLong(o);
        if (m == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        if (m & ~DECK) {
            PyErr_SetString(PyExc_ValueError, "a hand mask has bits beyond card 51");
            return -1;
        }
        if (m & seen) {
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return -1;
        }
        seen |= m;
        p->hands[s] = m;
    }
    Py_ssize_t nt = PyTuple_GET_SIZE(trick);
    if (nt >= n) {
        PyErr_SetString(PyExc_ValueError, "the current trick must hold fewer cards than players");
        return -1;
    }
    p->ntrick = (int)nt;
    for (Py_ssize_t i = 0; i < nt; i++) {
        long cd = PyLong_AsLong(PyTuple_GET_ITEM(trick, i));
        if (cd == -1 && PyErr_Occurred()) return -1;
        if (cd < 0 || cd > 51 || (seen >> cd & 1)) {
            PyErr_SetString(PyExc_ValueError, "a trick card is not a card or is also in a hand");
            return -1;
        }
        seen |= 1ULL << cd;
        p->trick[i] = (int)cd;
    }
    int base = POPC(p->hands[(leader + nt) % n]);
    for (Py_ssize_t i = 0; i < n; i++) {
        int seat = (int)((leader + i) % n);
        int want = base - (i < nt && nt > 0 ? 1 : 0);
        if (POPC(p->hands[seat]) != want) {
            PyErr_SetString(PyExc_ValueError,
                            "hand sizes do not fit the trick (the seats that played hold one "
                            "card fewer)");
            return -1;
        }
    }
    if (base >= MAXHAND) {
        PyErr_SetString(PyExc_ValueError, "hands are too big");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ module-level solve */
PyDoc_STRVAR(solve_doc,
             "solve(hands, trump, leader, trick, broken, side_mask, flags, tt_bits=20) -> int\n"
             "\n"
             "Most tricks the side (seats whose bit is set in side_mask) takes from this position "
             "on,\nthe current trick included, against best play.  flags: 1 overtake, 2 "
             "overtake_after_ruff,\n4 overtrump, 8 trump_if_cannot_overtrump, 16 trump leads "
             "restricted until broken,\n32 any trump breaks trumps.  The transposition table holds at "
             "most 2**tt_bits\nentries (small positions use 2**max(12, 2 * tricks left)).");

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"hands", "trump", "leader", "trick", "broken",
                             "side_mask", "flags", "tt_bits", NULL};
    PyObject *hands, *trick;
    int trump, leader, broken, side_mask, flags, bits = 20;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiiOpii|i:solve", kwlist, &hands, &trump, &leader,
                                     &trick, &broken, &side_mask, &flags, &bits))
        return NULL;
    if (bits < 4 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "tt_bits must be 4..30");
        return NULL;
    }
    Problem p;
    if (parse_problem(hands, trump, leader, trick, broken, side_mask, flags, &p) < 0) return NULL;
    /* a small position cannot fill a big table, and touching a fresh big table costs more than
     * solving it: 2**(2 * tricks left) entries are plenty (at least 2**12) */
    int left = POPC(p.hands[p.leader]) + (p.ntrick ? 1 : 0);
    if (bits > 2 * left) bits = 2 * left < 12 ? 12 : 2 * left;
    Table tt;
    if (table_init(&tt, bits) < 0) return PyErr_NoMemory();
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = run_solve(&p, &tt, NULL);
    Py_END_ALLOW_THREADS
    table_free(&tt);
    return PyLong_FromLong(v);
}

/* ------------------------------------------------------------------ Solver: a reusable table */
typedef struct {
    PyObject_HEAD Table tt;
    int busy;
    int n, trump, side_mask, flags; /* what the table's entries are valid for */
    unsigned long long nodes;
} SolverObject;

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"tt_bits", NULL};
    int bits = 20;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|i:Solver", kwlist, &bits)) return -1;
    if (bits < 4 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "tt_bits must be 4..30");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Solver is in use");
        return -1;
    }
    table_free(&self->tt);
    if (table_init(&self->tt, bits) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->n = -1;
    self->nodes = 0;
    return 0;
}

static void Solver_dealloc(SolverObject *self) {
    table_free(&self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyDoc_STRVAR(Solver_solve_doc,
             "solve(hands, trump, leader, trick, broken, side_mask, flags) -> int\n"
             "\n"
             "Like the module's solve(), keeping the table between calls: entries stay valid "
             "while trump,\nside_mask, flags and the number of players stay the same (keys are "
             "exact positions), and\nare dropped when they change.  One thread at a time.");

static PyObject *Solver_solve(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"hands", "trump", "leader", "trick", "broken",
                             "side_mask", "flags", NULL};
    PyObject *hands, *trick;
    int trump, leader, broken, side_mask, flags;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiiOpii:solve", kwlist, &hands, &trump, &leader,
                                     &trick, &broken, &side_mask, &flags))
        return NULL;
    if (!self->tt.slots) {
        PyErr_SetString(PyExc_RuntimeError, "Solver was not initialised");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Solver is in use by another thread");
        return NULL;
    }
    Problem p;
    if (parse_problem(hands, trump, leader, trick, broken, side_mask, flags, &p) < 0) return NULL;
    if (p.n != self->n || p.trump != self->trump || p.side_mask != self->side_mask ||
        p.flags != self->flags) {
        self->tt.gen++;
        if (self->tt.gen == 0) { /* wrapped: really clear */
            memset(self->tt.slots, 0, ((size_t)1 << self->tt.bits) * sizeof(Entry));
            self->tt.gen = 1;
        }
        self->n = p.n;
        self->trump = p.trump;
        self->side_mask = p.side_mask;
        self->flags = p.flags;
    }
    self->busy = 1;
    int v;
    uint64_t nodes = 0;
    Py_BEGIN_ALLOW_THREADS
    v = run_solve(&p, &self->tt, &nodes);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->nodes += nodes;
    return PyLong_FromLong(v);
}

static PyObject *Solver_clear(SolverObject *self, PyObject *noargs) {
    (void)noargs;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Solver is in use by another thread");
        return NULL;
    }
    self->n = -1;
    Py_RETURN_NONE;
}

static PyObject *Solver_get_nodes(SolverObject *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Solver_solve, METH_VARARGS | METH_KEYWORDS,
     Solver_solve_doc},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "Forget every entry of the table."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, NULL, "Trick-boundary nodes searched so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "batak.bots._csolver.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Solver(tt_bits=20): solve() many related positions with one table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

/* ------------------------------------------------------------------ module */
static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS, solve_doc},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "batak.bots._csolver",
    "Compiled double-dummy solver for Batak (see batak.bots.solver).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__csolver(void) {
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

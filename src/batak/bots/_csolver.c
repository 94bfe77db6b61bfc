/* Compiled twin of batak.bots.solver: a double-dummy solver for Batak.
 *
 * The search is the Python reference's (``_Solver`` in solver.py): a search "can the side take at
 * least ``need`` more tricks?" with alpha-beta on a zero window, driven by a bisection on
 * ``need`` (or, given a first guess, by steps of one from it; from 6 to 12 tricks left where
 * one player plays alone against the rest, by steps down from the lone player's every trick; and
 * in a full deal of two teams of two, by steps of one from half the tricks: run_solve), over the
 * same compulsory-play rules.  What makes it fast, beyond being C:
 *
 *   - a fixed-size transposition table at trick boundaries whose keys use RELATIVE ranks: each
 *     remaining card is replaced by its rank among the remaining cards of its suit, so positions
 *     that differ only in which low cards have gone share an entry.  This is exact in Batak: from
 *     a trick boundary on, following suit, overtaking, trumping, overtrumping and who wins a trick
 *     depend only on the order of the cards still in play within each suit.  The key is kept up
 *     to date card by card; a bucket is one cache line, and big tables sit in huge pages;
 *   - the search is fail-soft: a probe returns a bound beyond ``need`` where it found one, the
 *     table keeps both bounds, and the bisection skips what a probe already settled;
 *   - the best lead found at an entry is stored (as suit + relative rank) and tried first later;
 *     the entry is prefetched while the bounds below are worked out, and positions with fewer
 *     than TT_MIN_LEFT tricks left skip the table (searching them beats a cache miss);
 *   - cards that are equivalent (no other player's card, nor the trick's highest card of the
 *     suit, lies between them) are searched once;
 *   - move ordering: followers: when the trick is held by the other side, cheapest winning card
 *     first, else lowest card first; leads: the stored best lead, the sure winners in the side
 *     suits (and a lone player's sure trump where it holds the most trumps, in searches from at
 *     most SOLO_TRUMPS_FIRST tricks), then, for a team of two, low cards towards the partner's
 *     top card of a side suit no opponent can ruff, then a history of the leads that cut off
 *     (per seat and card, weighted by the tricks left), then the other sure winners, then low
 *     cards;
 *   - exact bounds at every trick boundary (team_bounds): each player's trumps that win whatever
 *     the other team does (a matching of its trumps against the other team's higher ones); the
 *     leader's quick tricks (top trumps drawing k rounds, then top cards of the other suits that
 *     nobody can ruff, then its remaining trumps, or its partner's in a team of two, against what
 *     the other team kept); a player holding every trump left also wins its runs of top cards;
 *     and a player alone in its team whose trumps win at least one trick also wins its runs of
 *     top cards that nobody can ruff, lead or not (safe_runs), and one holding the highest
 *     trump, not on lead, wins a first trick and then the leader's plan (after_first_win); a
 *     team of two on lead also wins a
 *     lead to the partner's top card of a side suit no opponent can ruff, and then the
 *     partner's plan, or a lead back to the leader's top card and the leader's plan
 *     (via_partner).
 *
 * No global mutable state: everything lives in a per-call (or per-Solver-object) context, and the
 * GIL is released during the search, so calls from several threads run in parallel.
 *
 * Cards are 0..51 = suit * 13 + rank (rank 0 is the two, 12 the ace); hands are 52-bit masks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ------------------------------------------------------------------ an optional trace */
/* Built with -DBATAK_SOLVER_TRACE (benchmarks/table_sharing.py does it; never the package), the
 * solver appends one record per searched table node to the file named by the environment
 * variable BATAK_SOLVER_TRACE: seven 64-bit words, the four hands, the node counter before and
 * after the search below it, and leader | broken << 4 | need << 8 | value << 16 | left << 24.
 * Each solve starts with a record of zeros whose last word is all ones. */
#ifdef BATAK_SOLVER_TRACE
#include <stdio.h>
static FILE *trace_file(void) {
    static FILE *f = NULL;
    if (!f && getenv("BATAK_SOLVER_TRACE")) f = fopen(getenv("BATAK_SOLVER_TRACE"), "ab");
    return f;
}
static void trace(const uint64_t *hands, uint64_t before, uint64_t after, uint64_t info) {
    FILE *f = trace_file();
    if (!f) return;
    uint64_t r[7] = {hands[0], hands[1], hands[2], hands[3], before, after, info};
    fwrite(r, sizeof r[0], 7, f);
}
#define TRACE(hands, before, after, info) trace(hands, before, after, info)
#define TRACE_FLUSH()                              \
    do {                                           \
        if (trace_file()) fflush(trace_file());    \
    } while (0)
#else
#define TRACE(hands, before, after, info) ((void)0)
#define TRACE_FLUSH() ((void)0)
#endif

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

/* Bits set in each 13-bit value: most counts are of one suit's cards, and a table look-up beats
 * the bit-twiddling count. */
#define P2(n) n, n + 1, n + 1, n + 2
#define P4(n) P2(n), P2(n + 1), P2(n + 1), P2(n + 2)
#define P6(n) P4(n), P4(n + 1), P4(n + 1), P4(n + 2)
#define P8(n) P6(n), P6(n + 1), P6(n + 1), P6(n + 2)
#define P10(n) P8(n), P8(n + 1), P8(n + 1), P8(n + 2)
#define P12(n) P10(n), P10(n + 1), P10(n + 1), P10(n + 2)
static const uint8_t POP13[8192] = {P12(0), P12(1)};

/* The number of cards of ``suit`` in ``m``. */
static inline int suit_count(uint64_t m, int suit) { return POP13[(m >> (13 * suit)) & SUIT_BITS]; }

/* The cards of ``h`` above every card of ``others`` in their suit (its runs of top cards), every
 * suit at once: ``others`` smeared down within each suit's 13 bits covers every card at or below
 * its highest card there, and what ``h`` holds outside that is its run of top cards. */
#define LANES(q) ((((1ULL << (q)) - 1)) | (((1ULL << (q)) - 1) << 13) | (((1ULL << (q)) - 1) << 26) | \
                  (((1ULL << (q)) - 1) << 39))
static inline uint64_t top_runs_mask(uint64_t h, uint64_t others) {
    uint64_t x = others;
    x |= (x >> 1) & LANES(12); /* a bit moves down d places only while it stays in its suit */
    x |= (x >> 2) & LANES(11);
    x |= (x >> 4) & LANES(9);
    x |= (x >> 8) & LANES(5);
    return h & ~x;
}

/* flags, as documented in solve() */
#define F_OVERTAKE 1
#define F_OVERTAKE_AFTER_RUFF 2
#define F_OVERTRUMP 4
#define F_TRUMP_IF_CANNOT 8
#define F_LEAD_RESTRICTED 16
#define F_BREAK_ON_LEAD 32
#define F_FREE_DISCARD 64 /* no compulsory trump: a void player may play any card */
#define F_ALL 127

/* the most cards a hand holds: 52 cards over at least 3 equal hands */
#define MAXHAND 18

/* Cards strictly above ``idx`` (0..51), any suit: the caller masks the suit. */
static inline uint64_t above(int idx) { return ~((2ULL << idx) - 1); }

/* ------------------------------------------------------------------ transposition table */
/* A bucket is one 64-byte cache line holding WAYS entries, so a probe touches one line. */
#define WAYS 3

typedef struct {
    uint64_t key[WAYS][2]; /* the relative-rank keys; key[w][0] == 0: an empty way */
    uint8_t lo[WAYS];      /* bounds on the side's tricks from here */
    uint8_t hi[WAYS];
    uint8_t best[WAYS];    /* best lead: suit << 4 | relative rank, 0xFF if none */
    uint8_t left[WAYS];    /* tricks left at this entry (replacement: keep the big subtrees) */
    uint32_t gen;          /* a bucket of another generation is empty */
} Bucket;

typedef char bucket_is_one_cache_line[sizeof(Bucket) == 64 ? 1 : -1];

/* positions with fewer tricks left are searched without the table (cheaper than a cache miss) */
#ifndef TT_MIN_LEFT
#define TT_MIN_LEFT 3
#endif

/* via_partner, the bound of a lead to the partner: tried from this many tricks left on (2: at
 * every boundary the bounds see), over at most VIA_DEPTH leads from one partner to the other
 * (benchmarks/README.md, session 44, second pass: 6 saves fewer nodes, a depth of 3 hardly more) */
#ifndef PARTNER_MIN_LEFT
#define PARTNER_MIN_LEFT 2
#endif
#ifndef VIA_DEPTH
#define VIA_DEPTH 2
#endif

/* run_solve without a guess, where one player plays alone against the rest: from LONE_TOP_MIN to
 * LONE_TOP_MAX tricks left at the root, the probes start at the lone player's most tricks and step
 * down (benchmarks/README.md, session 48); elsewhere, a bisection (but see PAIR_STEP_MIN) */
#ifndef LONE_TOP_MIN
#define LONE_TOP_MIN 6
#define LONE_TOP_MAX 12
#endif

/* run_solve without a guess, where no player plays alone (two teams of two): from PAIR_STEP_MIN
 * tricks left at the root (a full deal), the first probe is the bisection's (half the tricks,
 * rounded up) and the later ones step by one from the bound each probe returns, instead of
 * halving (benchmarks/README.md, session 49: a probe far above the value is dear for a pair) */
#ifndef PAIR_STEP_MIN
#define PAIR_STEP_MIN 13
#endif

/* the lead order: a lone leader's sure trump is tried before the history of leads that cut
 * (where it holds the most trumps) only in searches from at most this many tricks
 * (benchmarks/README.md, session 46: counted in cards played, that saved 2-12% of the search
 * from roots of 8 to 11 cards and cost 12% at 12 cards and 2-20% at 13) */
#ifndef SOLO_TRUMPS_FIRST
#define SOLO_TRUMPS_FIRST 11
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

typedef struct {
    Bucket *slots;
    uint64_t bucket_mask; /* number of buckets - 1 */
    uint32_t gen;
    int bits;
    void *mem;        /* what was allocated (slots is aligned within it) */
    size_t mem_size;  /* its size when mapped, 0 when it came from calloc */
} Table;

/* Big tables live in 2 MiB pages where the system offers them (Linux transparent huge pages):
 * each probe of a 16 MiB table with 4 KiB pages would miss the TLB as well as the cache. */
#define HUGE_PAGE ((size_t)2 << 20)

/* 2**bits entries at most: 2**(bits - 2) buckets of WAYS (3) entries, 16 bytes per entry. */
static int table_init(Table *t, int bits) {
    size_t buckets = (size_t)1 << (bits - 2);
    size_t bytes = buckets * sizeof(Bucket);
    t->mem = NULL;
    t->mem_size = 0;
    t->slots = NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
    if (bytes >= HUGE_PAGE) {
        size_t size = bytes + HUGE_PAGE;
        void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            uintptr_t a = ((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
            madvise((void *)a, bytes, MADV_HUGEPAGE);
            t->mem = m;
            t->mem_size = size;
            t->slots = (Bucket *)a; /* fresh anonymous pages read as zero */
        }
    }
#endif
    if (!t->slots) {
        t->mem = calloc(bytes + 64, 1);
        if (!t->mem) return -1;
        t->slots = (Bucket *)(((uintptr_t)t->mem + 63) & ~(uintptr_t)63);
    }
    t->bucket_mask = (uint64_t)buckets - 1;
    t->gen = 1;
    t->bits = bits;
    return 0;
}

static void table_clear(Table *t) {
    memset(t->slots, 0, ((size_t)1 << (t->bits - 2)) * sizeof(Bucket));
    t->gen = 1;
}

static void table_free(Table *t) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
    if (t->mem && t->mem_size) {
        munmap(t->mem, t->mem_size);
        t->mem = NULL;
        t->slots = NULL;
        return;
    }
#endif
    free(t->mem);
    t->mem = NULL;
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
    int solo[2];     /* a team of one player */
    int partner[4];  /* the other player of a team of two, else -1 */
    int must_ruff;   /* a player void in the suit led who holds a trump must play one */
    uint64_t hands[4];
    uint64_t key[2]; /* the relative-rank code of the cards in the hands (see make_key) */
    Table *tt;
    uint64_t nodes;
    uint64_t cards;    /* cards played (follow's calls): the work, settled positions included */
    int root_left;     /* tricks left at the search's root (this trick included) */
    uint64_t limit;    /* give up past this many nodes (0: never); see run_solve */
    jmp_buf *give_up;  /* where giving up returns to */
    uint32_t hist[4][52]; /* leads that cut, weighted by the tricks left (move ordering) */
} Ctx;

typedef struct {
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
    if (ht && !(c->flags & F_FREE_DISCARD)) {
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
    r.lead = suit;
    r.hi_led = card;
    r.hi_trump = suit == c->trump ? card : -1;
    r.ruffed = 0;
    r.winner = leader;
    r.broken = broken || (suit == c->trump && (c->flags & F_BREAK_ON_LEAD));
    return r;
}

/* One card of each run of equivalent legal cards (the highest of the run), high to low: a run
 * ends at the next card of ``others`` below it. */
static int distinct(uint64_t legal, uint64_t others, int *out) {
    int k = 0;
    while (legal) {
        int s = HIBIT(legal) / 13;
        uint64_t u = legal & SUIT_MASK[s];
        uint64_t o = others & SUIT_MASK[s];
        legal &= ~SUIT_MASK[s];
        while (u) {
            int cd = HIBIT(u);
            out[k++] = cd;
            uint64_t ob = o & ((1ULL << cd) - 1);
            u = ob ? u & ((1ULL << HIBIT(ob)) - 1) : 0;
        }
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

/* Tricks won by the trumps ``mine`` (one player's) against the trumps ``theirs`` (the other
 * team's): every card is played in some trick, one of a player's cards per trick, and a trump
 * wins its trick unless a higher trump falls in the same trick; each of the other team's trumps
 * falls in one trick only.  So at least |mine| - M of ``mine`` win, M being the most of ``mine``
 * that can be paired each with a higher card of ``theirs``: |mine| - M is the largest excess of
 * ``mine`` over ``theirs`` among the cards above any rank, and 0 at least (scanning from the
 * top, a card of ``theirs`` pairs with a later card of ``mine`` when one comes).
 *
 * The scan goes four ranks at a time: TW_NIBBLE[theirs << 4 | mine] (bit 3 scanned first) is
 * (excess over the four + 4) << 3 | the largest excess within them. */
static const uint8_t TW_NIBBLE[256] = {
     32,  41,  41,  50,  41,  50,  50,  59,  41,  50,  50,  59,  50,  59,  59,  68,
     24,  24,  33,  33,  33,  33,  42,  42,  33,  33,  42,  42,  42,  42,  51,  51,
     24,  32,  24,  32,  33,  41,  33,  41,  33,  41,  33,  41,  42,  50,  42,  50,
     16,  16,  16,  16,  25,  25,  25,  25,  25,  25,  25,  25,  34,  34,  34,  34,
     24,  32,  32,  41,  24,  32,  32,  41,  33,  41,  41,  50,  33,  41,  41,  50,
     16,  16,  24,  24,  16,  16,  24,  24,  25,  25,  33,  33,  25,  25,  33,  33,
     16,  24,  16,  24,  16,  24,  16,  24,  25,  33,  25,  33,  25,  33,  25,  33,
      8,   8,   8,   8,   8,   8,   8,   8,  17,  17,  17,  17,  17,  17,  17,  17,
     24,  32,  32,  41,  32,  41,  41,  50,  24,  32,  32,  41,  32,  41,  41,  50,
     16,  16,  24,  24,  24,  24,  33,  33,  16,  16,  24,  24,  24,  24,  33,  33,
     16,  24,  16,  24,  24,  32,  24,  32,  16,  24,  16,  24,  24,  32,  24,  32,
      8,   8,   8,   8,  16,  16,  16,  16,   8,   8,   8,   8,  16,  16,  16,  16,
     16,  24,  24,  32,  16,  24,  24,  32,  16,  24,  24,  32,  16,  24,  24,  32,
      8,   8,  16,  16,   8,   8,  16,  16,   8,   8,  16,  16,   8,   8,  16,  16,
      8,  16,   8,  16,   8,  16,   8,  16,   8,  16,   8,  16,   8,  16,   8,  16,
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
};

static inline int trump_winners(uint64_t mine, uint64_t theirs, int trump) {
    int sh = 13 * trump;
    unsigned m = (unsigned)(mine >> sh) & 0x1FFF, t = (unsigned)(theirs >> sh) & 0x1FFF;
    int cur = (int)(m >> 12) - (int)(t >> 12); /* the ace */
    int best = cur > 0 ? cur : 0;
    for (int sh4 = 8; sh4 >= 0; sh4 -= 4) {
        int v = TW_NIBBLE[((t >> sh4) & 15) << 4 | ((m >> sh4) & 15)];
        if (cur + (v & 7) > best) best = cur + (v & 7);
        cur += (v >> 3) - 4;
    }
    return best;
}

/* ``m`` with its ``k`` lowest cards removed. */
static inline uint64_t drop_lowest(uint64_t m, int k) {
    while (k-- > 0 && m) m &= m - 1;
    return m;
}

/* The cards of ``h`` in runs of top cards of the suits other than the trump (``all``: the cards
 * still in the hands).
 *
 * When one player holds every trump left, each of its trumps and each of these cards wins the
 * trick it falls in, whoever leads: a run card falls either when its suit is led (the player
 * plays its highest card of the suit, the highest left, and nobody else can ruff) or as a
 * discard when the player has no trump left; but its last trump won a trick, so from then on it
 * leads and cashes the runs (no run card was spent before: while it holds a trump, a void in the
 * suit led means a ruff, and a trick in a suit where it has no run costs no run card).  Runs only
 * grow as other cards go.  With F_FREE_DISCARD the ruff is that player's choice, which it may
 * make: a bound on what a team can secure never suffers from its own freedom, and the other
 * team, holding no trump, has no choice to gain. */
static int top_runs(uint64_t h, uint64_t all, uint64_t tmask) {
    return POPC(top_runs_mask(h, all & ~h) & ~tmask);
}

/* The cards of ``seat``'s runs of top cards in the suits other than the trump that no other
 * player can ruff: in each suit, as many as the shortest holding of that suit among the other
 * players who still hold a trump.  Where a player void in the suit led must play a trump
 * (``must_ruff``), such a player parts with cards of the suit only in tricks of that suit, and
 * ``seat`` plays one of its top cards in each of them: so while it holds one, nobody can ruff
 * it, whether the others lead the suit or ``seat`` cashes it once it has the lead. */
static int safe_runs(const Ctx *c, int seat, uint64_t all) {
    uint64_t h = c->hands[seat];
    uint64_t tops = top_runs_mask(h, all & ~h) & ~c->tmask;
    int m = 0;
    while (tops) {
        int su = CTZ(tops) / 13;
        int r = suit_count(tops, su);
        tops &= ~SUIT_MASK[su];
        for (int s = 0; s < c->n && r; s++) {
            if (s == seat || !(c->hands[s] & c->tmask)) continue;
            int len = suit_count(c->hands[s], su);
            if (len < r) r = len;
        }
        m += r;
    }
    return m;
}

/* A lower bound on the tricks of ``seat``, alone in its team, not on lead, holding the highest
 * trump left, where a player void in the suit led must play a trump (``must_ruff``).  Its
 * play: whenever it must play a trump it plays its highest (it wins: nobody holds a higher
 * one), and when a suit where it holds top cards is led it plays one.  So until it first wins
 * a trick it plays none of its other trumps and none of its top cards, and never discards (it
 * holds a trump); the others' trumps only go.  That first trick is one; then it leads, and the
 * leader's plan of team_bounds from there takes at least what it takes here with its highest
 * trump gone (as when the first trick was won with it; won with a top card of a suit, the plan
 * keeps one more top trump and has one card fewer in that suit): its next top trumps, k rounds
 * (if it may lead trumps now, it may then), then its top cards of the suits in which every
 * player holding a trump now holds as many cards (those suits are not led before: it would
 * have won), then its other trumps against the others' trumps after k rounds.  Each step only
 * gains as the others' cards go. */
static int after_first_win(const Ctx *c, int seat, int broken, uint64_t all, int runs) {
    uint64_t tm = c->tmask;
    uint64_t top = 1ULL << HIBIT(c->hands[seat] & tm);
    uint64_t h = c->hands[seat] & ~top;
    uint64_t rest = all & ~top;
    uint64_t others = rest & ~h;
    int k = 0;
    uint64_t rest_mine = h & tm;
    if (!(c->flags & F_LEAD_RESTRICTED) || broken || !(h & ~tm)) {
        uint64_t run = top_runs_mask(h, others) & tm;
        k = suit_count(run, c->trump);
        rest_mine &= ~run;
    }
    uint64_t rest_theirs = 0;
    int q = 1 + k + runs; /* the side suits' runs are safe_runs' (``runs``): the same cards */
    for (int s = 0; s < c->n; s++)
        if (s != seat) rest_theirs |= drop_lowest(c->hands[s] & tm, k);
    if (rest_mine) q += trump_winners(rest_mine, rest_theirs, c->trump);
    return q;
}

/* The leader's plan of team_bounds (see there), on ``hands`` (``all``: their union).  In a team
 * of two, after the plan's tricks the partner's remaining trumps win as trump_winners says
 * against the other team's remaining trumps, as the leader's do: in the k rounds of top trumps
 * it follows with its lowest trumps (it cannot beat the top trump, so any trump is legal; void,
 * it discards), and in the runs it follows suit (a partner still holding a trump counts among
 * the ruffers that limit the runs).  The plan adds the more of the two counts, not their sum:
 * two trumps of a team may fall in the same trick.  (Not for a team of three: against the
 * bidder alone, a defender's teammates counted so searched 2% more nodes on the benchmark's
 * seeds 1-20 and 2% fewer on seeds 21-60, at 4% more instructions.) */
static inline int plan_of(const Ctx *c, const uint64_t *hands, int leader, int broken,
                          uint64_t all, const int pair) {
    int n = c->n;
    uint64_t tm = c->tmask;
    uint64_t trumps = all & tm;
    uint64_t h = hands[leader];
    int lteam = c->on_side[leader];
    uint64_t others = all & ~h;
    int k = 0;
    uint64_t ruffers[4];
    int nr = 0;
    uint64_t rest_mine = h & tm, rest_theirs = 0;
    int partner = pair ? c->partner[leader] : -1;
    uint64_t rest_partner = 0; /* the partner's trumps after k rounds */
    uint64_t tops = top_runs_mask(h, others);
    if (trumps) {
        int can_lead = !(c->flags & F_LEAD_RESTRICTED) || broken || !(h & ~tm);
        if (can_lead) {
            uint64_t top = tops & tm;
            k = suit_count(top, c->trump);
            rest_mine &= ~top;
        }
        for (int s = 0; s < n; s++) {
            if (s == leader) continue;
            uint64_t rest = drop_lowest(hands[s] & tm, k); /* its trumps after k rounds */
            if (rest) ruffers[nr++] = hands[s];
            if (c->on_side[s] != lteam)
                rest_theirs |= rest;
            else if (s == partner)
                rest_partner = rest;
        }
    }
    int qt = k;
    tops &= ~tm;
    while (tops) {
        int su = CTZ(tops) / 13;
        int m = suit_count(tops, su);
        tops &= ~SUIT_MASK[su];
        for (int r = 0; r < nr && m; r++) {
            int len = suit_count(ruffers[r], su);
            if (len < m) m = len;
        }
        qt += m;
    }
    int tw = rest_mine ? trump_winners(rest_mine, rest_theirs, c->trump) : 0;
    if (pair && rest_partner && suit_count(rest_partner, c->trump) > tw) { /* else no more */
        int t = trump_winners(rest_partner, rest_theirs, c->trump);
        if (t > tw) tw = t;
    }
    return qt + tw;
}

/* plan_of, compiled apart for a leader with a partner and one without (the latter, the lone
 * bidder's and the three defenders', with none of the partner's work) */
static inline int leader_plan(const Ctx *c, const uint64_t *hands, int leader, int broken,
                              uint64_t all) {
    return c->partner[leader] >= 0 ? plan_of(c, hands, leader, broken, all, 1)
                                   : plan_of(c, hands, leader, broken, all, 0);
}

/* A lower bound on the tricks of the leader's team of two, by way of a lead to the partner: the
 * leader leads its lowest card of a side suit in which its partner holds the highest card left
 * and no opponent can ruff (each holds the suit, or no trump).  The partner plays that card (it
 * is legal: it follows suit and overtakes whatever was played) and wins the trick, no trump
 * falls, and the partner's plan from its lead (leader_plan) counts from there.  The opponents'
 * cards are taken at their worst for that plan: each one holding the suit gives up its lowest
 * card of it (a higher one would only leave the partner more top cards; each gives up one card
 * of the suit either way), and one without the suit keeps the card it discards (it holds no
 * trump, so it ruffs nothing later; a card more with the others only shortens the runs).  With
 * ``depth`` > 1 the partner may lead back to the leader the same way.  Only as much is worked
 * out as reaching ``target`` needs: the partner's plan is skipped where the partner's own
 * trumps and top cards of the other suits are too few (see there); a count that reaches
 * ``target`` is returned at once.  PARTNER_MIN_LEFT: the tricks left from which it is tried. */
static int via_partner(const Ctx *c, const uint64_t *H, int leader, int broken, uint64_t all,
                       int depth, int target) {
    int p = c->partner[leader];
    uint64_t leads = lead_mask(c, H[leader], broken) & ~c->tmask;
    int best = 0;
    for (int su = 0; su < 4; su++) {
        uint64_t mine = leads & SUIT_MASK[su];
        if (!mine) continue;
        int top = HIBIT(all & SUIT_MASK[su]);
        if (!(H[p] >> top & 1)) continue;
        uint64_t hands[4], a = 0;
        int ok = 1;
        for (int s = 0; s < c->n && ok; s++) {
            uint64_t hs = H[s];
            if (s == leader)
                hs &= ~(mine & -mine); /* its lowest card of the suit */
            else if (s == p)
                hs &= ~(1ULL << top);
            else if (hs & SUIT_MASK[su])
                hs &= ~((hs & SUIT_MASK[su]) & -(hs & SUIT_MASK[su]));
            else if (hs & c->tmask)
                ok = 0; /* it can ruff */
            hands[s] = hs;
            a |= hs;
        }
        if (!ok) continue;
        /* the partner's plan counts its top trumps and top cards of the other suits, then the
         * winners among its remaining trumps or, when more, among the leader's (plan_of): it is
         * worked out only if the partner's own trumps and top cards could reach the target, so
         * a plan that only the leader's trumps would lift to the target is left out (counting
         * those trumps here as well searched 2.0% and 3.3% fewer nodes on the pair's seeds 1-20
         * and 21-60 of solver_speed.py --nodes, but 1.3% more on seeds 61-160) */
        uint64_t hp = hands[p];
        int f = 0;
        if (1 + POPC(hp & c->tmask) + POPC(top_runs_mask(hp, a & ~hp) & ~c->tmask) >= target)
            f = leader_plan(c, hands, p, broken, a);
        if (depth > 1 && f + 1 < target) {
            int g = via_partner(c, hands, p, broken, a, depth - 1, target - 1);
            if (g > f) f = g;
        }
        f += 1;
        if (f >= target) return f;
        if (f > best) best = f;
    }
    return best;
}

/* Lower bounds on the tricks each team takes from this trick boundary on: bound[1] for the side,
 * bound[0] for the others.
 *
 *   - any player: its trumps that win whatever the other team does (trump_winners);
 *   - the leader, by one plan: first its run of top trumps, k rounds (if it may lead trumps;
 *     every other player must follow with a trump while it holds one, and cannot beat it), then
 *     its runs of top cards in the other suits.  A suit's run counts only while every other
 *     player that may still hold a trump also holds a card of that suit to follow with (a player
 *     void in the suit with a trump must (or, with F_FREE_DISCARD, may) ruff; one without trumps
 *     cannot hurt, whatever it discards).  Those tricks take no trump from anyone, so afterwards
 *     the leader's remaining trumps, or those of its partner in a team of two (who followed the
 *     k rounds with its lowest), still win as trump_winners says against the other team's
 *     remaining trumps (each of them has given up k, the lowest ones at worst);
 *   - a player holding every trump left: its trumps and its runs of top cards (top_runs);
 *   - a leader with one partner: a lead to the partner and the partner's plan (via_partner).
 * Only as much is worked out as a cut-off needs: the work stops once a team's bound reaches what
 * it needs (the side ``need`` tricks, the others the rest plus one), and a player with fewer
 * trumps than its team needs is skipped.  The bounds are valid either way. */
static void team_bounds(const Ctx *c, int leader, int broken, uint64_t all, int left, int need,
                        int bound[2]) {
    int n = c->n;
    uint64_t tm = c->tmask;
    uint64_t trumps = all & tm;
    int lteam = c->on_side[leader];
    /* what each team needs for a cut-off: the side ``need`` tricks, the others the rest + 1 */
    int target[2];
    target[1] = need;
    target[0] = left - need + 1;
    bound[0] = bound[1] = 0;
    int qt = leader_plan(c, c->hands, leader, broken, all);
    if (qt < target[lteam] && c->partner[leader] >= 0 && left >= PARTNER_MIN_LEFT) {
        int f = via_partner(c, c->hands, leader, broken, all, VIA_DEPTH, target[lteam]);
        if (f > qt) qt = f;
    }
    bound[lteam] = qt;
    if (qt >= target[lteam] || !trumps) return;
    /* every other player's trumps (the leader's own are counted in its plan: its top trumps
     * first, then trump_winners of the rest against all the other team's trumps) */
    uint64_t team_trumps[2] = {0, 0};
    for (int s = 0; s < n; s++) team_trumps[c->on_side[s]] |= c->hands[s] & tm;
    for (int s = 0; s < n; s++) {
        uint64_t mine = c->hands[s] & tm;
        if (s == leader || !mine) continue;
        int team = c->on_side[s], w;
        if (mine == trumps) {
            /* the only player with trumps: each of them wins the trick it falls in, and so does
             * each card of its runs of top cards in the other suits (top_runs) */
            w = suit_count(mine, c->trump) + top_runs(c->hands[s], all, tm);
        } else if (c->solo[team] && c->must_ruff) {
            /* alone in its team: its sure trumps, and once one of them has won (it holds a
             * trump until then, so it never has to discard), the runs nobody can ruff
             * (safe_runs) */
            w = trump_winners(mine, team_trumps[!team], c->trump);
            int runs = w ? safe_runs(c, s, all) : 0; /* w > 0 when it holds the top trump */
            w += runs;
            if (HIBIT(trumps) == HIBIT(mine)) {
                int f = after_first_win(c, s, broken, all, runs);
                if (f > w) w = f;
            }
        } else {
            if (suit_count(mine, c->trump) < target[team]) continue; /* cannot reach a cut-off */
            w = trump_winners(mine, team_trumps[!team], c->trump);
        }
        if (w > bound[team]) {
            bound[team] = w;
            if (w >= target[team]) return;
        }
    }
}

/* ------------------------------------------------------------------ keys */

/* The relative-rank code of the cards in the hands: per suit, the owners of its remaining cards
 * from the lowest up (2 bits each, 26 bits) and their count (4 bits); suits 0 and 1 in key[0],
 * 2 and 3 in key[1].  It is kept up to date as cards are played (key_remove), and at a trick
 * boundary the leader and the broken flag complete the table's key (at_least). */
static void make_key(Ctx *c) {
    uint64_t b0 = c->hands[1] | c->hands[3];
    uint64_t b1 = c->hands[2] | c->hands[3];
    uint64_t all = c->hands[0] | c->hands[1] | c->hands[2] | c->hands[3];
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
    c->key[0] = code[0] | code[1] << 26 | cnt[0] << 52 | cnt[1] << 56;
    c->key[1] = code[2] | code[3] << 26 | cnt[2] << 52 | cnt[3] << 56;
}

#define CODE_BITS ((1ULL << 26) - 1)

/* Take ``card`` out of the code; ``all`` holds the cards in the hands, ``card`` included. */
static inline void key_remove(Ctx *c, uint64_t all, int card) {
    int suit = card / 13;
    int rel = suit_count(all & ((1ULL << card) - 1), suit);
    int off = 26 * (suit & 1);
    uint64_t *k = &c->key[suit >> 1];
    uint64_t f = (*k >> off) & CODE_BITS;
    uint64_t low = (1ULL << (2 * rel)) - 1;
    f = (f & low) | ((f >> 2) & ~low);
    *k = (*k & ~(CODE_BITS << off)) | f << off;
    *k -= 1ULL << (52 + 4 * (suit & 1));
}

/* Relative rank (0 = lowest remaining) of ``card`` among ``all``'s cards of its suit. */
static inline int rel_of(uint64_t all, int card) {
    return suit_count(all & ((1ULL << card) - 1), card / 13);
}

/* The card of relative rank ``rel`` in ``suit`` among ``all``, or -1. */
static inline int card_of_rel(uint64_t all, int suit, int rel) {
    uint64_t u = all & SUIT_MASK[suit];
    for (int i = 0; i < rel && u; i++) u &= u - 1;
    return u ? CTZ(u) : -1;
}

/* ------------------------------------------------------------------ search */
static int at_least(Ctx *c, int leader, int broken, int need, uint64_t all, int left);

/* Does ``card``, played by the next player, take the trick from its holder? */
static inline int takes(const Ctx *c, const Trick *t, int card) {
    int suit = card / 13;
    if (suit == t->lead) return card > t->hi_led && (!t->ruffed || suit == c->trump);
    return suit == c->trump && card > t->hi_trump;
}

/* The rest of the trick from its ``i``-th card on (``all``: the cards in the hands; ``left``: the
 * tricks left, this one included). */
static int follow(Ctx *c, int leader, int i, const Trick *t, int need, uint64_t all, int left) {
    int n = c->n;
    c->cards++;
    if (i == n) {
        int won = c->on_side[t->winner];
        return won + at_least(c, t->winner, t->broken, need - won, all, left - 1);
    }
    int seat = leader + i < n ? leader + i : leader + i - n;
    uint64_t h = c->hands[seat];
    uint64_t legal = follow_mask(c, h, t);
    /* Cards of the trick separate two of this hand's cards only where they hold the trick's
     * highest card of the suit led or of the trumps: two cards on either side of another trick
     * card that are both below that highest card neither take the trick nor change what the
     * later players must play, and discards change nothing in the trick at all. */
    uint64_t others = (all & ~h) | 1ULL << t->hi_led;
    if (t->hi_trump >= 0) others |= 1ULL << t->hi_trump;
    int maximize = c->on_side[seat];
    int cards[MAXHAND], score[MAXHAND];
    int k = distinct(legal, others, cards);
    if (k > 1) {
        /* our side holds the trick: lowest first; else the cheapest card that takes it, then
         * the lowest of the rest */
        int ours = c->on_side[t->winner] == maximize;
        for (int j = 0; j < k; j++) {
            int cd = cards[j];
            score[j] = (!ours && takes(c, t, cd) ? 100 : 0) - cd % 13;
        }
        sort_by_score(cards, score, k);
    }
    int v = maximize ? -1 : 99; /* fail-soft: the best bound over the cards tried */
    for (int j = 0; j < k; j++) {
        int cd = cards[j];
        Trick next = play_follow(c, t, seat, cd);
        uint64_t k0 = c->key[0], k1 = c->key[1];
        if (left > TT_MIN_LEFT) key_remove(c, all, cd); /* below, no table: no key */
        c->hands[seat] = h & ~(1ULL << cd);
        int r = follow(c, leader, i + 1, &next, need, all & ~(1ULL << cd), left);
        c->hands[seat] = h;
        c->key[0] = k0;
        c->key[1] = k1;
        if ((r >= need) == maximize) return r;
        if (maximize ? r > v : r < v) v = r;
    }
    return v;
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

/* Play a lead and the rest of its trick. */
static inline int try_lead(Ctx *c, int leader, int broken, int need, uint64_t all, int left,
                           int cd) {
    uint64_t h = c->hands[leader];
    uint64_t k0 = c->key[0], k1 = c->key[1];
    if (left > TT_MIN_LEFT) key_remove(c, all, cd); /* below, no table: no key */
    c->hands[leader] = h & ~(1ULL << cd);
    Trick t = play_lead(c, leader, cd, broken);
    int r = follow(c, leader, 1, &t, need, all & ~(1ULL << cd), left);
    c->hands[leader] = h;
    c->key[0] = k0;
    c->key[1] = k1;
    return r;
}

/* The leads at a trick boundary, ``hint`` (the best lead stored in the table, or -1) first. */
static int lead(Ctx *c, int leader, int broken, int need, uint64_t all, int left, int hint,
                int *best) {
    uint64_t h = c->hands[leader];
    uint64_t legal = lead_mask(c, h, broken);
    uint64_t others = all & ~h;
    int maximize = c->on_side[leader];
    int team = c->on_side[leader];
    int cards[MAXHAND], score[MAXHAND];
    int k = distinct(legal, others, cards);
    int weight = k > 1 ? left * left : 0; /* history: cut-offs high in the tree count more */
    int v = maximize ? -1 : 99; /* fail-soft: the best bound over the leads tried */
    if (hint >= 0) {
        /* the stored lead first, before the others are even ordered */
        int j = 0;
        while (j < k && cards[j] != hint) j++;
        if (j < k) {
            int r = try_lead(c, leader, broken, need, all, left, hint);
            if ((r >= need) == maximize) {
                *best = hint;
                c->hist[leader][hint] += (uint32_t)weight;
                return r;
            }
            v = r;
            cards[j] = cards[--k];
        }
    }
    /* can an opponent of the leader ruff a suit?  (void in it and holding a trump) */
    int ruffable[4] = {0, 0, 0, 0};
    if (c->trump >= 0) {
        for (int s = 0; s < c->n; s++) {
            if (c->on_side[s] == team || !(c->hands[s] & c->tmask)) continue;
            for (int su = 0; su < 4; su++)
                if (!(c->hands[s] & SUIT_MASK[su])) ruffable[su] = 1;
        }
    }
    /* a lone leader's sure trump comes first too in a search from at most SOLO_TRUMPS_FIRST
     * tricks, where it holds more trumps than any other player and another still holds one */
    int trumps_first = 0;
    if (c->solo[team] && c->root_left <= SOLO_TRUMPS_FIRST && (h & c->tmask)) {
        int mine = suit_count(h, c->trump), most = 0;
        for (int s = 0; s < c->n; s++) {
            int q = s == leader ? 0 : suit_count(c->hands[s], c->trump);
            if (q > most) most = q;
        }
        trumps_first = most > 0 && mine > most;
    }
    for (int j = 0; j < k; j++) {
        int cd = cards[j], suit = cd / 13, rank = cd % 13;
        int top = HIBIT(all & SUIT_MASK[suit]) == cd;
        uint32_t hs = c->hist[leader][cd];
        if (hs > 0xFFFFF) hs = 0xFFFFF;
        int sure = top && (suit == c->trump || !ruffable[suit]);
        int high = HIBIT(all & SUIT_MASK[suit]);
        if (sure && (suit != c->trump || trumps_first)) /* sure side-suit winners first */
            score[j] = (2 << 28) + (suit == c->trump ? 0 : 20) + rank;
        else if (c->partner[leader] >= 0 && suit != c->trump && !ruffable[suit] &&
                 (c->hands[c->partner[leader]] >> high & 1))
            /* then a low card towards the partner's top card of a suit no opponent can ruff */
            score[j] = (2 << 28) - 64 - rel_of(all, cd);
        else /* else by the history of leads that cut, then sure winners, then the lowest
              * (relative rank) first */
            score[j] = (1 << 28) + (int)(hs << 6) + (sure ? 40 : 32 - rel_of(all, cd));
    }
    if (k > 1) sort_by_score(cards, score, k);
    for (int j = 0; j < k; j++) {
        int cd = cards[j];
        int r = try_lead(c, leader, broken, need, all, left, cd);
        if ((r >= need) == maximize) {
            *best = cd;
            c->hist[leader][cd] += (uint32_t)weight;
            return r;
        }
        if (maximize ? r > v : r < v) v = r;
    }
    return v;
}

/* Can the side take ``need`` of the remaining tricks (at a trick boundary, ``all``: the cards in
 * the hands)?  Fail-soft: a value >= need is a lower bound on the side's tricks from here, a
 * value < need an upper bound. */
static int at_least(Ctx *c, int leader, int broken, int need, uint64_t all, int left) {
    if (need <= 0) return 0;
    if (need > left) return left;
    if (left == 1) return last_trick(c, leader, broken); /* need == 1 */
    /* the table is worth its memory traffic only above the last few tricks */
    int use_tt = left >= TT_MIN_LEFT;
    Table *tt = c->tt;
    uint64_t k0 = 0, k1 = 0;
    Bucket *bk = NULL;
    if (use_tt) {
        int br = broken && (c->flags & F_LEAD_RESTRICTED) && (all & c->tmask);
        k0 = c->key[0] | (uint64_t)leader << 60 | (uint64_t)br << 62 | 1ULL << 63;
        k1 = c->key[1];
        bk = tt->slots + (mix(k0, k1) & tt->bucket_mask);
        PREFETCH(bk); /* while the bounds are worked out */
    }
    int bound[2];
    team_bounds(c, leader, broken, all, left, need, bound);
    int ours = bound[1], theirs = bound[0];
    if (ours >= need) return ours;
    if (need > left - theirs) return left - theirs;
    if (++c->nodes > c->limit && c->limit) longjmp(*c->give_up, 1);
    if (!use_tt) {
        int b = -1;
        return lead(c, leader, broken, need, all, left, -1, &b);
    }
    int w = -1;
    int lo = ours, hi = left - theirs, hint = -1;
    if (bk->gen == tt->gen) {
        for (int x = 0; x < WAYS; x++) {
            if (bk->key[x][0] == k0 && bk->key[x][1] == k1) {
                w = x;
                break;
            }
        }
    }
    if (w >= 0) {
        if (bk->lo[w] > lo) lo = bk->lo[w];
        if (bk->hi[w] < hi) hi = bk->hi[w];
        if (lo >= need) return lo;
        if (hi < need) return hi;
        if (bk->best[w] != 0xFF) hint = card_of_rel(all, bk->best[w] >> 4, bk->best[w] & 15);
    }
    int best = -1;
#ifdef BATAK_SOLVER_TRACE
    uint64_t before = c->nodes;
#endif
    int v = lead(c, leader, broken, need, all, left, hint, &best);
    TRACE(c->hands, before, c->nodes,
          (uint64_t)(leader | broken << 4 | need << 8 | v << 16 | left << 24));
    if (v >= need) {
        if (v > lo) lo = v;
        v = lo;
    } else {
        if (v < hi) hi = v;
        v = hi;
    }
    if (bk->gen != tt->gen) { /* a stale bucket: empty it */
        memset(bk, 0, sizeof *bk);
        bk->gen = tt->gen;
    }
    /* the search below this node may have stored its own positions in this bucket, evicting
     * the way found above: write back only to a way that still holds this key */
    if (w >= 0 && (bk->key[w][0] != k0 || bk->key[w][1] != k1)) w = -1;
    if (w < 0) {
        /* an empty way, else the one with the fewest tricks left */
        w = 0;
        for (int x = 0; x < WAYS; x++) {
            if (!bk->key[x][0]) {
                w = x;
                break;
            }
            if (bk->left[x] < bk->left[w]) w = x;
        }
        bk->key[w][0] = k0;
        bk->key[w][1] = k1;
        bk->best[w] = 0xFF;
    }
    bk->lo[w] = (uint8_t)lo;
    bk->hi[w] = (uint8_t)hi;
    bk->left[w] = (uint8_t)left;
    if (best >= 0) {
        int g = group_top(c->hands[leader], all & ~c->hands[leader], best);
        bk->best[w] = (uint8_t)((g / 13) << 4 | rel_of(all, g));
    }
    return v;
}

/* ------------------------------------------------------------------ one solve */
typedef struct {
    uint64_t hands[4];
    int n, leader, ntrick, broken, side_mask, flags, trump;
    int trick[4];
} Problem;

/* Can the side take at least ``need`` tricks from the problem's position on?  Fail-soft: a value
 * v >= need is a lower bound on the side's tricks, v < need an upper bound. */
static int probe(Ctx *c, const Problem *p, int need) {
    make_key(c);
    uint64_t all = 0;
    for (int s = 0; s < p->n; s++) all |= c->hands[s];
    int left = POPC(p->hands[(p->leader + p->ntrick) % p->n]); /* this trick included */
    if (p->ntrick == 0) return at_least(c, p->leader, p->broken, need, all, left);
    Trick t = play_lead(c, p->leader, p->trick[0], p->broken);
    t.broken = p->broken; /* the position's flag already counts the lead */
    for (int i = 1; i < p->ntrick; i++) {
        t = play_follow(c, &t, (p->leader + i) % p->n, p->trick[i]);
        t.broken = p->broken;
    }
    return follow(c, p->leader, p->ntrick, &t, need, all, left);
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
    int size[2] = {0, 0};
    for (int s = 0; s < p->n; s++) size[c->on_side[s]]++;
    c->solo[0] = size[0] == 1;
    c->solo[1] = size[1] == 1;
    for (int s = 0; s < 4; s++) {
        c->partner[s] = -1;
        if (s >= p->n || size[c->on_side[s]] != 2) continue;
        for (int o = 0; o < p->n; o++)
            if (o != s && c->on_side[o] == c->on_side[s]) c->partner[s] = o;
    }
    c->must_ruff = !(p->flags & F_FREE_DISCARD) &&
                   (!(p->flags & F_OVERTRUMP) || (p->flags & F_TRUMP_IF_CANNOT));
    c->tt = tt;
    c->nodes = 0;
    c->cards = 0;
    c->root_left = POPC(p->hands[p->leader]) + (p->ntrick ? 1 : 0);
    c->limit = 0;
    c->give_up = NULL;
    memset(c->hist, 0, sizeof c->hist);
}

/* The side's most tricks, or -1 when ``limit`` (0: none) nodes did not suffice.  Giving up
 * leaves the table sound: an entry is written only once the search below it has finished, and
 * the jump leaves from a node count, between two such writes.
 *
 * The probes: without a guess (``guess`` < 0), a bisection of zero-window probes from 0..left
 * (but see the end of this comment);
 * with one, the first probe asks "at least ``guess`` tricks?" (put within 1..left) and each
 * later one steps by one from the bound the last probe learnt, as MTD(f) does: after a probe
 * that reached its target, "at least one more than the lower bound?", else "at least the upper
 * bound?".  A guess one above a good estimate of the value settles most full deals in two
 * probes, the first one failing just above the value (benchmarks/README.md, session 47).
 * Without a guess, a position of LONE_TOP_MIN..LONE_TOP_MAX tricks where one player plays alone
 * takes the guess "the lone player takes every trick" (session 48), and one of at least
 * PAIR_STEP_MIN tricks between two teams of two the guess "half the tricks" (session 49). */
static int run_solve(const Problem *p, Table *tt, uint64_t *nodes, uint64_t *cards,
                     uint64_t limit, int guess) {
    Ctx c;
    ctx_init(&c, p, tt);
    jmp_buf give_up;
    c.limit = limit;
    c.give_up = &give_up;
    if (setjmp(give_up)) {
        /* c changed since setjmp: its value is not to be read here (C11 7.13.2.1); the jump
         * always leaves at the node past the limit */
        if (nodes) *nodes = limit + 1;
        return -1;
    }
    int left = POPC(p->hands[p->leader]) + (p->ntrick ? 1 : 0);
    TRACE(((uint64_t[4]){0, 0, 0, 0}), 0, 0, ~0ULL);
    int lo = 0, hi = left;
    int mid = -1; /* the next probe's target */
    if (guess < 0 && left >= LONE_TOP_MIN && left <= LONE_TOP_MAX) {
        /* one player alone against the rest: ask first whether it takes every trick, then step
         * down from the bound each failed probe returns (from the side's point of view: the
         * lone side asks "all?", a side against a lone player "at least one?").  A lone player's
         * extra trick is refuted early, so these failing probes are cheap and fail-soft gives
         * a tight upper bound; the last two probes settle the value. */
        if (c.solo[1])
            guess = left;
        else if (c.solo[0])
            guess = 1;
    }
    if (guess < 0 && left >= PAIR_STEP_MIN && !c.solo[0] && !c.solo[1]) {
        /* two teams of two: the bisection's first probe, then steps of one.  A refuted probe
         * far above the value costs a pair's search much (every lead of the side refuted at a
         * target it misses by two or three); stepping asks one more than what is proved. */
        guess = (left + 1) / 2;
    }
    if (guess >= 0) mid = guess < 1 ? 1 : guess > left ? left : guess;
    /* zero-window probes; the table keeps the bounds each probe learnt, so the later probes
     * mostly re-read them */
    while (lo < hi) {
        if (mid < 0) mid = (lo + hi + 1) / 2;
        int v = probe(&c, p, mid);
        int reached = v >= mid;
        if (reached)
            lo = v < hi ? v : hi;
        else
            hi = v > lo ? v : lo;
        mid = guess < 0 ? -1 : reached ? lo + 1 : hi;
    }
    if (nodes) *nodes = c.nodes;
    if (cards) *cards = c.cards;
    TRACE_FLUSH();
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
        PyErr_SetString(PyExc_ValueError, "flags must be 0..127");
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
             "solve(hands, trump, leader, trick, broken, side_mask, flags, tt_bits=20, guess=-1) "
             "-> int\n"
             "\n"
             "Most tricks the side (seats whose bit is set in side_mask) takes from this position "
             "on,\nthe current trick included, against best play.  flags: 1 overtake, 2 "
             "overtake_after_ruff,\n4 overtrump, 8 trump_if_cannot_overtrump, 16 trump leads "
             "restricted until broken,\n32 any trump breaks trumps, 64 no compulsory trump when void.  The transposition table holds at "
             "most 2**tt_bits\nentries (small positions use 2**max(12, 2 * tricks left)).  "
             "guess >= 0: the first probe asks for at\nleast guess tricks (moved within 1..tricks "
             "left) and the next ones step by one from there\n(negative: a bisection, or, from 6 "
             "to 12 tricks left where one player plays alone, the\nlone player's every trick "
             "as the guess); the value is the same.");

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"hands", "trump", "leader", "trick", "broken",
                             "side_mask", "flags", "tt_bits", "guess", NULL};
    PyObject *hands, *trick;
    int trump, leader, broken, side_mask, flags, bits = 20, guess = -1;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiiOpii|ii:solve", kwlist, &hands, &trump,
                                     &leader, &trick, &broken, &side_mask, &flags, &bits, &guess))
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
    v = run_solve(&p, &tt, NULL, NULL, 0, guess);
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
    unsigned long long cards;
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
    self->cards = 0;
    return 0;
}

static void Solver_dealloc(SolverObject *self) {
    table_free(&self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyDoc_STRVAR(Solver_solve_doc,
             "solve(hands, trump, leader, trick, broken, side_mask, flags, max_nodes=0, guess=-1) "
             "-> int | None\n"
             "\n"
             "Like the module's solve(), keeping the table between calls: entries stay valid "
             "while trump,\nside_mask, flags and the number of players stay the same (keys are "
             "exact positions), and\nare dropped when they change.  One thread at a time.  With "
             "max_nodes (0: no limit) it\ngives up past that many nodes and returns None; the "
             "table stays sound.  guess: as in the module's\nsolve().");

static PyObject *Solver_solve(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"hands", "trump", "leader", "trick", "broken",
                             "side_mask", "flags", "max_nodes", "guess", NULL};
    PyObject *hands, *trick;
    int trump, leader, broken, side_mask, flags, guess = -1;
    unsigned long long max_nodes = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiiOpii|Ki:solve", kwlist, &hands, &trump,
                                     &leader, &trick, &broken, &side_mask, &flags, &max_nodes,
                                     &guess))
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
        if (self->tt.gen == 0) table_clear(&self->tt); /* wrapped: really clear */
        self->n = p.n;
        self->trump = p.trump;
        self->side_mask = p.side_mask;
        self->flags = p.flags;
    }
    self->busy = 1;
    int v;
    uint64_t nodes = 0, cards = 0;
    Py_BEGIN_ALLOW_THREADS
    v = run_solve(&p, &self->tt, &nodes, &cards, (uint64_t)max_nodes, guess);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->nodes += nodes;
    self->cards += cards;
    if (v < 0) Py_RETURN_NONE; /* gave up: more than max_nodes nodes */
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

static PyObject *Solver_get_cards(SolverObject *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->cards);
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Solver_solve, METH_VARARGS | METH_KEYWORDS,
     Solver_solve_doc},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "Forget every entry of the table."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, NULL, "Trick-boundary nodes searched so far.", NULL},
    {"cards", (getter)Solver_get_cards, NULL,
     "Cards played so far (every card tried in every trick but the last; searches that gave "
     "up not counted).", NULL},
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

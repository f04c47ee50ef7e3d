# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Cribbage in C data, for playouts and throughput (RULES.md §5; the pure engine in game.py is the reference
and the differential tests hold this one to it move by move, events included).

A game is one C struct: cards are 0..51 in pack order ((rank - 1) x 4 + suit, suits C D H S), hands,
kept hands and the crib are 64-bit masks, the current series is a fixed array of ranks, the undealt pack
a fixed array in deal order (the starter is ``pack[cut]``, as in the pure engine). Moves are the integer
ids of docs/actions.md (two players, automatic scoring: discard 0-1325, play 1326 + card, go 1378, count
hand 1379, count crib 1380). Chance (the deal, the cut) comes from a splitmix64 generator of the game's
own, so runs are reproducible, or from outcomes fed in with :meth:`NativeCribbage.feed_deal` and
:meth:`NativeCribbage.feed_cut` to follow another engine's deals.

Supported: every preset and option (``NotImplementedError`` only for a number of players that is not the
rules' own): two, three or four players (partners sit opposite), five-card cribbage, automatic scoring or
the muggins rule with all its options, any target.

The C code numbers moves as the two-player automatic game does (its "internal" ids, the ones the playouts
choose); the Python face translates them to and from the ids of the rules in force (claim codes, the muggins
call and the late claim). The muggins window is the one of ``core/protocol.py``: every move closes it, a
scoring step opens it, a call settles it. A playout's moves announce their true points and nobody calls.

The event log: each event the pure engine would log is appended as a record of eight ints (``ev``), only
by the game that owns the log (a copy of the struct made by a playout or a search never writes to it) and
never during a playout; :meth:`NativeCribbage.events` builds the ``Event`` objects from the records.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from muggins.core.pylist cimport muggins_refill, muggins_small_int, tuple_items
from muggins.core.owner cimport apply_slowly, owner_of, window_actions
from muggins.core.idlog cimport IdLog, idlog_copy, idlog_init, idlog_list, idlog_push
from muggins.core.splitmix cimport splitmix_next, splitmix_unit
from muggins.core.pyrandom cimport (DRAW_CUT, DRAW_DEAL, DRAW_WIDTH, MT, DrawLog, draw_copy, draw_push, draw_take, mt_below,
                                    mt_cut_for_deal, mt_load, mt_seed, mt_sort_shuffle, mt_state)
from libc.time cimport clock, clock_t, CLOCKS_PER_SEC
from cpython.ref cimport PyObject
from cpython.tuple cimport PyTuple_GET_ITEM

import dataclasses

from muggins.core.errors import ClaimError, GameOver, IllegalAction, NotYourTurn, UnknownAction, shown
from muggins.core.protocol import check_seat

__all__ = ["NUM_IDS", "NativeCribbage", "check_rules", "from_state", "random_games_native", "sample_world", "search",
           "show_points"]

NUM_IDS = N_IDS
_PHASES = ("discard", "play", "show", "over")
_PEG_PAIRS = (0, 0, 2, 6, 12)
_REASONS = ("his heels", "play", "go", "hand", "crib", "mugged", "false call", "muggins", "over-claim penalty",
            "three for last")
_WHATS = ("card", "go", "hand", "crib", "jack turned up")
_OUTCOMES = ("steal", "forfeit", "steal_and_deduct", "false_call")


# ------------------------------------------------------------------------------------------ helpers ----

cdef inline int card_rank(int c) noexcept nogil:
    return (c >> 2) + 1


cdef inline int card_value(int c) noexcept nogil:
    cdef int r = (c >> 2) + 1
    return 10 if r > 10 else r


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define MG_CTZ(x) __builtin_ctzll(x)
    #if defined(__POPCNT__)
    #define MG_POPCOUNT(x) __builtin_popcountll(x)
    #else  /* without the instruction the builtin calls libgcc: count the bits in place */
    static inline int MG_POPCOUNT(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    #else
    static int MG_CTZ(unsigned long long x) { int i = 0; while (!((x >> i) & 1)) i++; return i; }
    static int MG_POPCOUNT(unsigned long long x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
    #endif
    """
    int MG_CTZ(unsigned long long x) noexcept nogil
    int MG_POPCOUNT(unsigned long long x) noexcept nogil


cdef inline int popcount(uint64_t m) noexcept nogil:
    return MG_POPCOUNT(m)


cdef inline int lowbit(uint64_t m) noexcept nogil:
    """The lowest set bit of a non-empty mask."""
    return MG_CTZ(m)


cdef uint64_t FITTING[32]  # FITTING[count]: the cards that keep a count at most 31 (see fitting)


cdef void fill_fitting() noexcept nogil:
    cdef int count, room
    for count in range(32):
        room = 31 - count
        FITTING[count] = <uint64_t>0xFFFFFFFFFFFFFFFF if room >= 10 else \
            (<uint64_t>1 << (4 * room)) - 1 if room > 0 else 0


fill_fitting()


cdef inline uint64_t fitting(uint64_t held, int count) noexcept nogil:
    """The cards of ``held`` that keep the count at most 31: ranks 1..room sit at indices 0..4 room - 1."""
    cdef int room = 31 - count
    if <unsigned int>count <= 31:  # (always, in a game)
        return held & FITTING[count]
    if room >= 10:
        return held
    if room <= 0:
        return 0
    return held & ((<uint64_t>1 << (4 * room)) - 1)


cdef inline uint64_t next_u64(Game* g) noexcept nogil:
    """The next 64 bits of the game's own generator (splitmix64, muggins/core/splitmix.pxd)."""
    return splitmix_next(&g.rng)


cdef inline int below(Game* g, int n) noexcept nogil:
    """A number 0..n-1 (multiply-shift: the bias of a 32-bit draw is far below anything measured here)."""
    return <int>(((next_u64(g) >> 32) * <uint64_t>n) >> 32)


cdef int peg_points(const int* ranks, int n, int count) noexcept nogil:
    """What the last card of the series scores: 15 or 31, the tail of equal ranks, the longest run tail
    (pegging.peg_parts, the same backward scan)."""
    cdef int total = 2 if (count == 15 or count == 31) else 0
    cdef int last = ranks[n - 1]
    cdef int i = n - 2
    cdef int k, r, lo, hi, best, length
    cdef int seen
    if i >= 0 and ranks[i] == last:
        k = 2
        i -= 1
        while i >= 0 and ranks[i] == last:
            k += 1
            i -= 1
        return total + (2 if k == 2 else 6 if k == 3 else 12)
    if n < 3:
        return total
    seen = 1 << last
    lo = last
    hi = last
    best = 0
    length = 1
    while i >= 0:
        r = ranks[i]
        if seen & (1 << r):
            break
        seen |= 1 << r
        length += 1
        if r < lo:
            lo = r
        elif r > hi:
            hi = r
        if length >= 3 and hi - lo == length - 1:
            best = length
        i -= 1
    return total + best


cdef int rank_points(const int* cards, int n) noexcept nogil:
    """Fifteens, pairs and runs of ``n`` (4 or 5) cards: subset sums built one card at a time, pairs by
    rank counts, runs as stretches of consecutive held ranks times the ways to pick one card of each."""
    cdef int sums[32]
    cdef int counts[15]
    cdef int i, m, pts = 0, r, length, ways
    sums[0] = 0
    for i in range(n):
        for m in range(1 << i):
            sums[(1 << i) | m] = sums[m] + card_value(cards[i])
    for m in range(1, 1 << n):
        if sums[m] == 15:
            pts += 2
    for i in range(15):
        counts[i] = 0
    for i in range(n):
        counts[card_rank(cards[i])] += 1
    for r in range(1, 14):
        pts += counts[r] * (counts[r] - 1)
    r = 1
    while r <= 13:
        if counts[r] == 0:
            r += 1
            continue
        length = 0
        ways = 1
        while r <= 13 and counts[r] > 0:
            length += 1
            ways *= counts[r]
            r += 1
        if length >= 3:
            pts += length * ways
    return pts


# The fifteens, pairs and runs (rank_points) of every multiset of 4 or 5 ranks, by its place in the colex
# order of multisets (RANKS_AT): a show reads its table instead of working them out.
cdef unsigned char RANK_POINTS4[1820]  # C(16, 4) multisets of four of the 13 ranks
cdef unsigned char RANK_POINTS5[6188]  # C(17, 5) of five
cdef int BINOMIAL[6][18]  # BINOMIAL[k][n]: n choose k


cdef inline int ranks_at(const int* ranks, int n) noexcept nogil:
    """The place of the multiset ``ranks[:n]`` (0-12, ascending) in colex order: ranks r0 <= r1 <= ... read
    as the combination r0 < r1 + 1 < r2 + 2 ... of the combinatorial number system."""
    cdef int i, at = 0
    for i in range(n):
        at += BINOMIAL[i + 1][ranks[i] + i]
    return at


cdef void fill_rank_points() noexcept nogil:
    cdef int k, n, i, at
    cdef int ranks[5]
    cdef int cards[5]
    for n in range(18):
        BINOMIAL[0][n] = 1
    for k in range(1, 6):
        BINOMIAL[k][0] = 0
        for n in range(1, 18):
            BINOMIAL[k][n] = BINOMIAL[k - 1][n - 1] + BINOMIAL[k][n - 1]
    for k in range(4, 6):  # every ascending multiset, in turn: ranks as an odometer whose digits never fall
        for i in range(k):
            ranks[i] = 0
        while True:
            for i in range(k):
                cards[i] = ranks[i] << 2
            at = ranks_at(ranks, k)
            if k == 4:
                RANK_POINTS4[at] = <unsigned char>rank_points(cards, 4)
            else:
                RANK_POINTS5[at] = <unsigned char>rank_points(cards, 5)
            i = k - 1
            while i >= 0 and ranks[i] == 12:
                i -= 1
            if i < 0:
                break
            ranks[i] += 1
            for n in range(i + 1, k):
                ranks[n] = ranks[i]


fill_rank_points()


cdef int show_score(uint64_t hand, int starter, bint is_crib) noexcept nogil:
    """A shown hand or crib of four cards with the starter (show.score_show): fifteens, pairs, runs (from
    the table of their ranks), the flush (four in hand, five with the starter; the crib only with all five)
    and his nobs."""
    cdef int cards[5]
    cdef int ranks[5]
    cdef int n = 0, s0, suit, j, r = starter >> 2
    cdef uint64_t m = hand
    cdef bint flush = True
    while m:
        cards[n] = lowbit(m)
        ranks[n] = cards[n] >> 2  # (ascending: cards in pack order go by rank)
        m &= m - 1
        n += 1
    cards[n] = starter
    j = n
    while j > 0 and ranks[j - 1] > r:  # the starter's rank among them
        ranks[j] = ranks[j - 1]
        j -= 1
    ranks[j] = r
    cdef int pts
    if n == 4:
        pts = RANK_POINTS5[ranks_at(ranks, 5)]
    elif n == 3:
        pts = RANK_POINTS4[ranks_at(ranks, 4)]
    else:
        pts = rank_points(cards, n + 1)
    s0 = cards[0] & 3
    for suit in range(1, n):
        if (cards[suit] & 3) != s0:
            flush = False
    if flush:
        if (starter & 3) == s0:
            pts += n + 1
        elif not is_crib:
            pts += n
    if (hand >> (40 + (starter & 3))) & 1:  # the jack (indices 40-43) of the starter's suit
        pts += 1
    return pts


cdef int kept_score(uint64_t hand) noexcept nogil:
    """What four kept cards (three in the five-card game) are worth before the cut (the greedy discard):
    fifteens, pairs, runs, flush."""
    cdef int cards[4]
    cdef int n = 0
    cdef uint64_t m = hand
    cards[3] = 0
    while m:
        cards[n] = lowbit(m)
        m &= m - 1
        n += 1
    cdef int pts = rank_points(cards, n)
    if n == 4 and (cards[0] & 3) == (cards[1] & 3) == (cards[2] & 3) == (cards[3] & 3):
        pts += 4
    elif n == 3 and (cards[0] & 3) == (cards[1] & 3) == (cards[2] & 3):
        pts += 3
    return pts


# ------------------------------------------------------------------------------------- the game ----

cdef inline void award(Game* g, int side, int points) noexcept nogil:
    g.scores[side] += points
    if points > 0 and g.scores[side] >= g.target and g.phase != PH_OVER:
        g.phase = PH_OVER
        g.winner = side
        g.turn = -1


cdef inline int side_of(Game* g, int seat) noexcept nogil:
    return seat if g.nsides == 2 and g.nplayers == 2 else seat % g.nsides


cdef inline uint64_t all_held(Game* g) noexcept nogil:
    return g.held[0] | g.held[1] | g.held[2] | g.held[3]


cdef inline bint logging(Game* g) noexcept nogil:
    """Whether ``g`` keeps an event log: only the game that owns it, never a copy of its struct."""
    return g.log != NULL and g.log.owner == <void*>g


cdef bint grow_log(Game* g, EvLog* L) noexcept nogil:
    """Make room for one more record in ``g``'s log ``L``; False (the log turned off) when out of memory."""
    cdef long cap = 64 * EV_WIDTH if L.cap == 0 else 2 * L.cap
    cdef int* buf = <int*>realloc(L.buf, cap * sizeof(int))
    if buf == NULL:
        g.log = NULL
        return False
    L.buf = buf
    L.cap = cap
    return True


cdef inline void ev(Game* g, int kind, int seat, int a, int b, int c, int d, int e, int f) noexcept nogil:
    """Append one event record (when the log is on); a failed allocation turns the log off."""
    cdef EvLog* L = g.log
    cdef int* buf
    if L == NULL or L.owner != <void*>g:
        return
    if L.n + EV_WIDTH > L.cap and not grow_log(g, L):
        return
    buf = L.buf + L.n
    buf[0] = kind
    buf[1] = seat
    buf[2] = a
    buf[3] = b
    buf[4] = c
    buf[5] = d
    buf[6] = e
    buf[7] = f
    L.n += EV_WIDTH


cdef void ev_cards(Game* g, int kind, int seat, uint64_t m) noexcept nogil:
    """An event naming up to six cards of ``m`` in pack order."""
    cdef int c[6]
    cdef int k
    for k in range(6):
        c[k] = -1
    k = 0
    while m and k < 6:
        c[k] = lowbit(m)
        m &= m - 1
        k += 1
    ev(g, kind, seat, c[0], c[1], c[2], c[3], c[4], c[5])


cdef inline void score(Game* g, int seat, int points, int reason) noexcept nogil:
    """``award`` to the side of ``seat`` with its "score" event, and "game_end" when it wins."""
    cdef int side = side_of(g, seat)
    cdef bint was_over = g.phase == PH_OVER
    if points == 0:
        return
    award(g, side, points)
    if g.log != NULL or (g.phase == PH_OVER and not was_over):
        scored(g, seat, side, points, reason, was_over)


cdef void scored(Game* g, int seat, int side, int points, int reason, bint was_over) noexcept nogil:
    """What follows a score beyond the points: its event; at the end of the game, the window's close."""
    if logging(g):
        ev(g, EV_SCORE, seat, side, points, reason, 0, 0, 0)
    if g.phase == PH_OVER and not was_over:
        end_window(g)  # points still unclaimed are missed; a show's true count is told
        if logging(g):
            ev(g, EV_GAME_END, -1, side, g.scores[0], g.scores[1], g.scores[2], 0, 0)


cdef void tell_due(Game* g) noexcept nogil:
    """The true count of a show, once its window has closed (manual claims)."""
    if g.due:
        if logging(g):
            ev(g, EV_EXPLAIN, g.due_seat, g.due - 1, <int><unsigned int>g.due_mask, <int>(g.due_mask >> 32),
               g.due_starter, 0, 0)
        g.due = 0


cdef void end_window(Game* g) noexcept nogil:
    """Close the open window (what is still unclaimed is missed for good) and tell a show's count."""
    if g.w_open:
        g.w_open = 0
        if g.w_missed > 0 and logging(g):
            ev(g, EV_MISSED, g.w_scorer, g.w_side, g.w_missed, g.w_reason, 0, 0, 0)
    tell_due(g)


cdef void over_claim(Game* g, int seat, int amount, int true_points, int what) noexcept nogil:
    """An over-claim is void; with over_claim=opponent_scores the next opponent scores the amount."""
    cdef int k, o, n = g.nplayers
    if logging(g):
        ev(g, EV_OVER_CLAIM, seat, amount, true_points, what, g.over_penalty, 0, 0)
    if g.over_penalty:
        for k in range(1, n):
            o = (seat + k) % n
            if side_of(g, o) != side_of(g, seat):
                score(g, o, amount, R_OVER_PENALTY)
                return


cdef void score_step(Game* g, int seat, int points, int claim, int reason, int what, bint muggable,
                     int late_limit) noexcept nogil:
    """One scoring step (``GameState._score_step``): awarded at once in automatic scoring (or when nobody
    may mug it); with claims, what was announced is awarded and a window opens on what was missed."""
    cdef int awarded, missed, may, late
    if not g.manual or not muggable:
        score(g, seat, points, reason)
        return
    if claim == CLAIM_TRUE:
        claim = points
    if claim < 0:
        awarded = 0
        missed = points
    else:
        if logging(g):
            ev(g, EV_CLAIM, seat, claim, 0, 0, 0, 0, 0)
        if claim <= points:
            awarded = claim
            missed = points - claim
        else:
            awarded = 0
            missed = points
            over_claim(g, seat, claim, points, what)
    if awarded and g.phase != PH_OVER:
        score(g, seat, awarded, reason)
    if g.phase == PH_OVER:
        if missed and logging(g):
            ev(g, EV_MISSED, seat, side_of(g, seat), missed, reason, 0, 0, 0)
        return
    if late_limit >= 0:
        may = 1
        late = late_limit
    elif claim < 0 and g.lenient:
        may = 1
        late = missed
    else:
        may = 0
        late = 0
    if g.w_open:
        end_window(g)
    g.w_open = 1
    g.w_scorer = seat
    g.w_side = side_of(g, seat)
    g.w_missed = missed
    g.w_claimed = claim
    g.w_reason = reason
    g.w_what = what
    g.w_may = may
    g.w_late = late


cdef void call_muggins(Game* g, int seat, int amount) noexcept nogil:
    """A muggins call naming ``amount`` (-1: all that was missed) on the open window (``resolve_call``)."""
    cdef int missed = g.w_missed, scorer = g.w_scorer, reason = g.w_reason
    cdef int outcome, gain = 0, loss = 0, penalty = 0, scorer_award = 0
    if missed <= 0 or amount == 0:
        outcome = O_FALSE_CALL
        if g.false_call == 1:
            penalty = g.false_points
        elif g.false_call == 2:
            scorer_award = min(amount if amount > 0 else g.false_points, g.award_cap[reason])
    else:
        outcome = g.mug_rule
        if outcome != O_FORFEIT:
            gain = missed if amount < 0 else (amount if amount < missed else missed)
        if outcome == O_STEAL_AND_DEDUCT:
            loss = gain
    g.w_open = 0
    if logging(g):
        ev(g, EV_MUGGINS, seat, scorer, outcome, gain, amount, missed, reason)
    tell_due(g)
    if loss:
        score(g, scorer, -loss, R_MUGGED)
    if penalty:
        score(g, seat, -penalty, R_FALSE_CALL)
    if scorer_award and g.phase != PH_OVER:
        score(g, scorer, scorer_award, R_FALSE_CALL)
    if gain and g.phase != PH_OVER:
        score(g, seat, gain, R_MUGGINS)
    if (outcome == O_STEAL or outcome == O_STEAL_AND_DEDUCT) and missed > gain and logging(g):
        ev(g, EV_MISSED, scorer, side_of(g, scorer), missed - gain, reason, 0, 0, 0)


cdef void late_claim(Game* g, int seat, int amount) noexcept nogil:
    """The scorer announces late what he left out (``GameState._late_claim``)."""
    cdef int may = (g.w_missed if g.w_missed < g.w_late else g.w_late) if g.w_may else 0
    g.w_may = 0
    g.w_late = 0
    g.w_claimed = amount
    if logging(g):
        ev(g, EV_CLAIM, seat, amount, 1, 0, 0, 0, 0)
    if amount <= may:
        g.w_missed -= amount
        score(g, seat, amount, g.w_reason)
    else:
        over_claim(g, seat, amount, may, g.w_what)


cdef inline void begin_hand(Game* g, int n, int phase) noexcept nogil:
    """What every deal leaves the same: no starter yet, every seat to discard, no play made; and the log's
    deal and dealt events."""
    cdef int seat
    g.starter = -1
    g.cut = -1
    g.to_discard = (1 << n) - 1
    g.phase = phase
    g.turn = -1
    g.count = 0
    g.nranks = 0
    g.gone = 0
    g.last = -1
    g.show_i = 0
    for seat in range(4):
        g.discards[seat] = 0
    g.pile = 0
    g.series = 0
    g.shown = 0
    g.crib_shown = 0
    for seat in range(4):
        g.go_floor[seat] = 0
    if logging(g):
        ev(g, EV_DEAL, g.dealer, g.hand_no, 0, 0, 0, 0, 0)
        for seat in range(n):
            ev_cards(g, EV_DEALT, seat, g.held[seat])


cdef inline void shuffled_deck(Game* g, int* deck) noexcept nogil:
    """The 52 cards in a fresh random order (Fisher-Yates on the game's own generator)."""
    cdef int i, j, t
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        j = below(g, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


cdef void deal(Game* g) noexcept nogil:
    """A new hand: six cards each from the dealer's left, the dealer last, the rest is the pack."""
    cdef int deck[52]
    cdef int i, j, t, k, seat
    if g.external and not g.feed_deal:
        g.pending = 1  # the owner draws the deal (NativeCribbage.follow_chance) and deals it
        return
    if g.nplayers != 2 or g.five_card:
        deal_n(g)
        return
    g.hand_no += 1
    g.held[0] = 0
    g.held[1] = 0
    if g.feed_deal:
        g.feed_deal = 0
        for i in range(6):
            g.held[0] |= <uint64_t>1 << g.feed_cards[i]
            g.held[1] |= <uint64_t>1 << g.feed_cards[6 + i]
        for i in range(PACK):
            g.pack[i] = g.feed_cards[12 + i]
    else:
        shuffled_deck(g, deck)
        k = 0
        for i in range(6):
            for seat in range(1, 3):
                g.held[(g.dealer + seat) & 1] |= <uint64_t>1 << deck[k]
                k += 1
        for i in range(PACK):
            g.pack[i] = deck[12 + i]
    g.kept[0] = 0
    g.kept[1] = 0
    g.crib = 0
    begin_hand(g, 2, PH_DISCARD)


cdef void deal_n(Game* g) noexcept nogil:
    """A new hand of any deal: ``each`` cards to every seat from the dealer's left, the dealer last, then
    the crib's card (three players), the rest is the pack."""
    cdef int deck[52]
    cdef int i, j, t, k, seat, n = g.nplayers
    g.hand_no += 1
    for seat in range(4):
        g.held[seat] = 0
        g.kept[seat] = 0
    g.crib = 0
    if g.feed_deal:
        g.feed_deal = 0
        for seat in range(n):
            for i in range(g.each):
                g.held[seat] |= <uint64_t>1 << g.feed_cards[seat * g.each + i]
        k = n * g.each
    else:
        shuffled_deck(g, deck)
        k = 0
        for i in range(g.each):
            for seat in range(1, n + 1):
                g.held[(g.dealer + seat) % n] |= <uint64_t>1 << deck[k]
                k += 1
        for i in range(k, 52):
            g.feed_cards[i] = deck[i]
    for i in range(g.crib_dealt):
        g.crib |= <uint64_t>1 << g.feed_cards[k]
        k += 1
    for i in range(g.npack):
        g.pack[i] = g.feed_cards[k + i]
    begin_hand(g, n, PH_DISCARD if g.winner < 0 else PH_OVER)  # five-card: three for last can reach a tiny target


cdef void cut_starter(Game* g) noexcept nogil:
    """The pone cuts (at least four cards each side: positions 4-36 of 40); a jack is his heels, 2 to
    the dealer at once."""
    cdef int k
    if g.external and g.feed_cut < 0:
        g.pending = 2
        return
    if g.feed_cut >= 0:
        k = g.feed_cut
        g.feed_cut = -1
    else:
        k = 4 + below(g, g.npack - 7)
    g.cut = k
    g.starter = g.pack[k]
    g.phase = PH_PLAY
    g.turn = (g.dealer + 1) % g.nplayers
    if logging(g):
        ev(g, EV_STARTER, -1, g.starter, k, 0, 0, 0, 0)
    if card_rank(g.starter) == 11:
        if g.manual and g.mug_heels:  # muggable; the dealer may claim it late, whatever the timing
            if logging(g):
                ev(g, EV_HIS_HEELS, g.dealer, g.starter, 0, 0, 0, 0, 0)
            score_step(g, g.dealer, 2, CLAIM_NONE, R_HEELS, W_JACK, 1, 2)
        else:
            score(g, g.dealer, 2, R_HEELS)


cdef void end_series(Game* g, int last) noexcept nogil:
    if logging(g):
        ev(g, EV_RESET, -1, g.count, last, 0, 0, 0, 0)
    g.count = 0
    g.nranks = 0
    g.gone = 0
    g.last = -1
    g.series |= g.pile
    g.pile = 0
    cdef int t = last
    cdef int k
    if not g.five_card:  # the five-card game plays one series
        for k in range(g.nplayers):
            t += 1
            if t == g.nplayers:
                t = 0
            if g.held[t]:
                g.turn = t
                return
    g.phase = PH_SHOW
    g.show_i = 0
    g.turn = (g.dealer + 1) % g.nplayers
    if logging(g):
        ev(g, EV_SHOW_START, -1, g.dealer, 0, 0, 0, 0, 0)


cdef inline int next_active(Game* g, int seat) noexcept nogil:
    cdef int o = seat ^ 1
    cdef int k
    if g.nplayers == 2:
        if g.held[o] and not (g.gone >> o) & 1:
            return o
        return -1
    o = seat
    for k in range(g.nplayers - 1):
        o += 1
        if o == g.nplayers:
            o = 0
        if g.held[o] and not (g.gone >> o) & 1:
            return o
    return -1


cdef void lay_away(Game* g, int seat, uint64_t cards) noexcept nogil:
    """``seat`` lays ``cards`` away to the crib; the starter is cut once every seat has."""
    g.held[seat] &= ~cards
    g.kept[seat] = g.held[seat]
    g.crib |= cards
    g.discards[seat] = cards
    g.to_discard &= ~(1 << seat)
    if logging(g):
        ev_cards(g, EV_DISCARD, seat, cards)
    if not g.to_discard:
        cut_starter(g)


cdef inline void do_discard(Game* g, int seat, int a, int b) noexcept nogil:
    lay_away(g, seat, (<uint64_t>1 << a) | (<uint64_t>1 << b))


cdef inline void do_discard1(Game* g, int seat, int card) noexcept nogil:
    """Lay one card away (three or four players)."""
    lay_away(g, seat, <uint64_t>1 << card)


cdef void log_play(Game* g, int seat, int card, int pts, int pegged) noexcept nogil:
    """The "play" event of the card just laid, its points ``pts`` (``pegged`` of them by ``peg_points``, the rest
    the go) split as ``peg_items`` names them."""
    cdef int n = g.nranks
    cdef int fifteen = 2 if (g.count == 15 or g.count == 31) else 0
    cdef int peg = pegged - fifteen
    cdef int go = pts - pegged
    cdef bint paired = n >= 2 and g.ranks[n - 2] == g.ranks[n - 1]
    if go and not all_held(g):
        go = 2
    ev(g, EV_PLAY, seat, card, g.count, pts, peg if paired else 0, 0 if paired else peg, go)


cdef inline void raise_floor(Game* g, int seat) noexcept nogil:
    """``seat`` could not lay a card at this count: every card it holds is worth more than 31 - count."""
    if 31 - g.count > g.go_floor[seat]:
        g.go_floor[seat] = 31 - g.count


cdef void do_play(Game* g, int seat, int card) noexcept nogil:
    g.held[seat] &= ~(<uint64_t>1 << card)
    g.count += card_value(card)
    g.ranks[g.nranks] = card_rank(card)
    g.nranks += 1
    g.pile |= <uint64_t>1 << card
    g.last = seat
    cdef int pts = peg_points(g.ranks, g.nranks, g.count)
    cdef int pegged = pts
    cdef int nxt = -1
    if g.count < 31:
        nxt = next_active(g, seat)
        if nxt < 0:
            if fitting(g.held[seat], g.count):
                nxt = seat
            else:
                pts += 1  # nobody can follow: the go (or last card) comes with this card
                if g.held[seat]:
                    raise_floor(g, seat)
    if g.manual:
        if logging(g):
            ev(g, EV_PLAY, seat, card, g.count, -1, 0, 0, 0)
        score_step(g, seat, pts, g.claim, R_PLAY, W_CARD, 1, -1)
        if g.phase == PH_OVER:
            return
    else:
        if logging(g):
            log_play(g, seat, card, pts, pegged)
        if pts:
            score(g, seat, pts, R_PLAY)
            if g.phase == PH_OVER:
                return
    if nxt < 0:
        end_series(g, seat)
    else:
        g.turn = nxt


cdef void do_go(Game* g, int seat) noexcept nogil:
    cdef int t
    if g.held[seat]:
        raise_floor(g, seat)
    if seat == g.last:  # every other player has gone: the last card's player takes the point
        if logging(g):
            ev(g, EV_GO, seat, g.count, 1 if all_held(g) else 2, 0, 0, 0, 0)
        score_step(g, seat, 1, g.claim, R_GO, W_GO, 1, -1)
        if g.phase != PH_OVER:
            end_series(g, seat)
        return
    g.gone |= 1 << seat
    if logging(g):
        ev(g, EV_GO, seat, g.count, 0, 0, 0, 0, 0)
    if g.manual and g.claim != CLAIM_NONE:  # announcing points for a go that scores nothing
        score_step(g, seat, 0, g.claim, R_GO, W_GO, 1, -1)
        if g.phase == PH_OVER:
            return
    t = next_active(g, seat)
    g.turn = t if t >= 0 else g.last


cdef void do_count(Game* g, int seat) noexcept nogil:
    cdef bint crib = g.show_i == g.nplayers
    cdef uint64_t shown = g.crib if crib else g.kept[seat]
    cdef int pts = show_score(shown, g.starter, crib)
    if crib:
        g.crib_shown = 1
    else:
        g.shown |= shown
    if g.manual:
        if logging(g):
            ev(g, EV_SHOW, seat, crib, -1, <int><unsigned int>shown, <int>(shown >> 32), g.starter, 0)
        g.due = 1 + crib
        g.due_seat = seat
        g.due_mask = shown
        g.due_starter = g.starter
        score_step(g, seat, pts, g.claim, R_CRIB if crib else R_HAND, W_CRIB if crib else W_HAND, 1, -1)
    else:
        if logging(g):
            ev(g, EV_SHOW, seat, crib, pts, <int><unsigned int>shown, <int>(shown >> 32), g.starter, 0)
            ev(g, EV_EXPLAIN, seat, crib, <int><unsigned int>shown, <int>(shown >> 32), g.starter, 0, 0)
        score(g, seat, pts, R_CRIB if crib else R_HAND)
    if g.phase == PH_OVER:
        return
    g.show_i += 1
    if g.show_i < g.nplayers:  # the hands from the dealer's left round to the dealer, then his crib
        g.turn = (g.dealer + 1 + g.show_i) % g.nplayers
    elif g.show_i == g.nplayers:  # the crib is turned up for everyone before the dealer counts it
        g.turn = g.dealer
        g.crib_shown = 1
    else:
        g.dealer = (g.dealer + 1) % g.nplayers
        deal(g)


cdef unsigned char PAIR_HIGH[1326]  # c2 of each discard id, filled once below


cdef void fill_pairs() noexcept nogil:
    cdef int c1, c2
    for c2 in range(1, 52):
        for c1 in range(c2):
            PAIR_HIGH[c1 + c2 * (c2 - 1) // 2] = <unsigned char>c2


fill_pairs()


cdef inline void unrank_pair(int i, int* a, int* b) noexcept nogil:
    """The cards c1 < c2 of discard id i = c1 + c2 (c2 - 1) / 2 (c2 read from a table: a walk up to c2
    was a tenth of a playout)."""
    cdef int c2 = PAIR_HIGH[i]
    a[0] = i - c2 * (c2 - 1) // 2
    b[0] = c2


cdef inline int to_move(Game* g) noexcept nogil:
    if g.phase == PH_OVER:
        return -1
    if g.phase == PH_DISCARD:
        return lowbit(<uint64_t>g.to_discard)
    return g.turn


cdef int legal_check(Game* g, int seat, int i) noexcept nogil:
    """0 if ``seat`` may use id ``i`` now; else why not: 1 over, 2 not this seat's move, 3 not legal."""
    cdef int a, b
    cdef uint64_t fit
    if g.phase == PH_OVER:
        return 1
    if g.phase == PH_DISCARD:
        if not (g.to_discard >> seat) & 1:
            return 2
        if i >= ID_PLAY:
            return 3
        if g.discard_each == 1:
            return 0 if i < 52 and (g.held[seat] >> i) & 1 else 3
        unrank_pair(i, &a, &b)
        if not ((g.held[seat] >> a) & 1 and (g.held[seat] >> b) & 1):
            return 3
        return 0
    if seat != g.turn:
        return 2
    if g.phase == PH_PLAY:
        fit = fitting(g.held[seat], g.count)
        if i == ID_GO:
            return 0 if not fit else 3
        if ID_PLAY <= i < ID_GO and (fit >> (i - ID_PLAY)) & 1:
            return 0
        return 3
    if i == (ID_COUNT_CRIB if g.show_i == g.nplayers else ID_COUNT_HAND):
        return 0
    return 3


# the 15 pairs of six cards c0 < ... < c5 (indices lo, hi) in the order of their ids (by the higher card, then
# the lower) and in the order of itertools.combinations
cdef unsigned char PAIR_LO[2][15]
cdef unsigned char PAIR_HI[2][15]


cdef void fill_six_pairs() noexcept nogil:
    cdef int a, b, k = 0
    for b in range(1, 6):
        for a in range(b):
            PAIR_LO[1][k] = a
            PAIR_HI[1][k] = b
            k += 1
    k = 0
    for a in range(5):
        for b in range(a + 1, 6):
            PAIR_LO[0][k] = a
            PAIR_HI[0][k] = b
            k += 1


fill_six_pairs()


cdef int own_moves(Game* g, int seat, int* ids, bint by_id, int cap) noexcept nogil:
    """The internal ids of ``seat``'s own moves now into ``ids`` (at most ``cap`` of them), their number:
    discards by id (``by_id``) or as combinations of the sorted hand (the pure engine's order), plays by
    card, else go, the next count. (The usual cases - two cards laid away of six, a play from four cards at
    most - are written out with no branch that depends on the cards.)"""
    cdef uint64_t fit, m, rest, held
    cdef int a, b, k, n = 0
    cdef int c[6]
    if not 0 <= seat < g.nplayers or g.phase == PH_OVER:
        return 0
    if g.phase == PH_DISCARD:
        if not (g.to_discard >> seat) & 1:
            return 0
        held = g.held[seat]
        m = held
        if g.discard_each == 2 and popcount(held) == 6 and cap >= 15:
            for k in range(6):
                c[k] = lowbit(m)
                m &= m - 1
            for k in range(15):
                a = c[PAIR_LO[by_id][k]]
                b = c[PAIR_HI[by_id][k]]
                ids[k] = a + b * (b - 1) // 2
            return 15
        while m and n < cap:
            a = lowbit(m)
            m &= m - 1
            if g.discard_each == 1:
                ids[n] = a
                n += 1
            elif by_id:  # ids a + b (b - 1) / 2 ascend with b, then a (here a is the higher card)
                rest = held & ((<uint64_t>1 << a) - 1)
                while rest and n < cap:
                    b = lowbit(rest)
                    rest &= rest - 1
                    ids[n] = b + a * (a - 1) // 2
                    n += 1
            else:
                rest = m
                while rest and n < cap:
                    b = lowbit(rest)
                    rest &= rest - 1
                    ids[n] = a + b * (b - 1) // 2
                    n += 1
        return n
    if seat != g.turn:
        return 0
    if g.phase == PH_PLAY:
        fit = fitting(g.held[seat], g.count)
        if not fit:
            ids[0] = ID_GO
            return 1
        n = popcount(fit)
        if n <= 4 and cap >= 4:
            m = fit | (<uint64_t>1 << 63)  # (a bit past the cards: the places past n are written, not given)
            for k in range(4):
                ids[k] = ID_PLAY + lowbit(m)
                m &= m - 1
            return n
        n = 0
        while fit and n < cap:
            ids[n] = ID_PLAY + lowbit(fit)
            n += 1
            fit &= fit - 1
        return n
    ids[0] = ID_COUNT_CRIB if g.show_i == g.nplayers else ID_COUNT_HAND
    return 1


cdef void apply_legal(Game* g, int seat, int i) noexcept nogil:
    cdef int a, b
    if g.w_open:  # every move closes the muggins window (a show still untold has one open)
        end_window(g)
    if g.phase == PH_DISCARD:
        if g.discard_each == 1:
            do_discard1(g, seat, i)
            return
        unrank_pair(i, &a, &b)
        do_discard(g, seat, a, b)
    elif g.phase == PH_PLAY:
        if i == ID_GO:
            do_go(g, seat)
        else:
            do_play(g, seat, i - ID_PLAY)
    else:
        do_count(g, seat)


cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    while k > 0:
        m &= m - 1
        k -= 1
    return lowbit(m)


cdef int choose(Game* g, int seat, int policy) noexcept nogil:
    """The id a policy picks for ``seat`` now: uniform over the legal ids (random), or the most points at
    once, the first of equals (greedy: the discard keeping the best four cards, the card pegging most)."""
    cdef uint64_t held, fit, m, keep
    cdef int a, b, i, j, n, best, pts, c, pick
    cdef int cards[6]
    if g.phase == PH_SHOW:
        return ID_COUNT_CRIB if g.show_i == g.nplayers else ID_COUNT_HAND
    if g.phase == PH_DISCARD:
        held = g.held[seat]
        n = 0
        m = held
        while m:
            cards[n] = lowbit(m)
            m &= m - 1
            n += 1
        if g.discard_each == 1:
            if policy == POLICY_RANDOM:
                return cards[below(g, n)]
            best = -1
            a = 0
            for i in range(n):
                pts = kept_score(held & ~(<uint64_t>1 << cards[i]))
                if pts > best:
                    best = pts
                    a = i
            return cards[a]
        if policy == POLICY_RANDOM:
            pick = below(g, n * (n - 1) // 2)
            a = 0
            b = 1
            while pick >= n - 1 - a:  # walk the pairs (a, b) of positions in order
                pick -= n - 1 - a
                a += 1
            b = a + 1 + pick
        else:
            best = -1
            a = 0
            b = 1
            for i in range(n):
                for j in range(i + 1, n):
                    keep = held & ~((<uint64_t>1 << cards[i]) | (<uint64_t>1 << cards[j]))
                    pts = kept_score(keep)
                    if pts > best:
                        best = pts
                        a = i
                        b = j
        return cards[a] + cards[b] * (cards[b] - 1) // 2
    fit = fitting(g.held[seat], g.count)
    if not fit:
        return ID_GO
    if policy == POLICY_RANDOM:
        return ID_PLAY + nth_bit(fit, below(g, popcount(fit)))
    best = -1
    pick = lowbit(fit)
    m = fit
    while m:
        c = lowbit(m)
        m &= m - 1
        g.ranks[g.nranks] = card_rank(c)
        pts = peg_points(g.ranks, g.nranks + 1, g.count + card_value(c))
        if pts > best:
            best = pts
            pick = c
    return ID_PLAY + pick


cdef int true_play_points(Game* g, int seat, int card) noexcept nogil:
    """The points laying ``card`` makes now, the go point it brings included (``_points_of`` of a play)."""
    cdef int count = g.count + card_value(card)
    cdef int pts
    g.ranks[g.nranks] = card_rank(card)
    pts = peg_points(g.ranks, g.nranks + 1, count)
    if count < 31 and next_active(g, seat) < 0 and not fitting(g.held[seat] & ~(<uint64_t>1 << card), count):
        pts += 1
    return pts


cdef int true_points(Game* g, int seat, int i) noexcept nogil:
    """The points internal id ``i`` makes for ``seat`` now (``_points_of``: what a perfect player announces)."""
    if g.phase == PH_PLAY:
        if i == ID_GO:
            return 1 if seat == g.last else 0
        return true_play_points(g, seat, i - ID_PLAY)
    if g.phase == PH_SHOW:
        if g.show_i == g.nplayers:
            return show_score(g.crib, g.starter, True)
        return show_score(g.kept[seat], g.starter, False)
    return 0


cdef int choose_mixed(Game* g, int seat, double greedy) noexcept nogil:
    """The search bot's rollout move: with probability ``greedy`` the play announcing the most points (ties
    at random), else a uniform one; a discard announces nothing, so it is always uniform."""
    cdef uint64_t fit, m
    cdef int n, c, pts, best, ties, pick
    if g.phase != PH_PLAY:
        return choose(g, seat, POLICY_RANDOM)
    fit = fitting(g.held[seat], g.count)
    if not fit:
        return ID_GO
    n = popcount(fit)
    if n == 1:
        return ID_PLAY + lowbit(fit)
    if splitmix_unit(&g.rng) >= greedy:
        return ID_PLAY + nth_bit(fit, below(g, n))
    best = -1
    ties = 0
    pick = lowbit(fit)
    m = fit
    while m:
        c = lowbit(m)
        m &= m - 1
        pts = true_play_points(g, seat, c)
        if pts > best:
            best = pts
            ties = 1
            pick = c
        elif pts == best:
            ties += 1
            if below(g, ties) == 0:
                pick = c
    return ID_PLAY + pick


cdef long run_playout(Game* g, int policy, long max_moves, int until_hand_end=0,
                      double greedy=1.0) noexcept nogil:
    """Play until the game is over or ``max_moves`` (or, with ``until_hand_end``, the next deal): policy
    random (0), greedy (1) or mixed (2, :func:`choose_mixed`)."""
    cdef long moves = 0
    cdef int seat, hand = g.hand_no
    cdef EvLog* log = g.log  # no events in a playout
    g.log = NULL
    g.claim = CLAIM_TRUE
    while g.phase != PH_OVER and moves < max_moves:
        if until_hand_end and g.hand_no != hand:
            break
        seat = to_move(g)
        if policy == 2:
            apply_legal(g, seat, choose_mixed(g, seat, greedy))
        else:
            apply_legal(g, seat, choose(g, seat, policy))
        moves += 1
    g.log = log
    g.claim = CLAIM_NONE
    return moves


cdef void seed_game(Game* g, uint64_t seed) noexcept nogil:
    g.rng = seed
    next_u64(g)


cdef void new_game(Game* g, int target, int dealer) noexcept nogil:
    g.scores[0] = 0
    g.scores[1] = 0
    g.scores[2] = 0
    g.phase = PH_DISCARD
    g.held[2] = 0
    g.held[3] = 0
    g.target = target
    g.winner = -1
    g.hand_no = 0
    g.feed_cut = -1
    g.feed_deal = 0
    g.claim = CLAIM_NONE
    g.w_open = 0
    g.due = 0
    g.dealer = dealer if dealer >= 0 else below(g, g.nplayers)
    if g.five_card:  # three for last: the first pone pegs 3 at the start
        score(g, (g.dealer + 1) % g.nplayers, 3, R_THREE)
    deal(g)


# ------------------------------------------------------------------------------------ Python face ----

def check_rules(rules: object, num_players: int = 2) -> None:
    """Raise NotImplementedError naming what the native engine does not support in ``rules`` (nothing a
    cribbage preset or option asks for: two to four players, five-card, automatic or manual claims)."""
    players = getattr(rules, "players", 2)
    if num_players != players or players not in (2, 3, 4):
        raise NotImplementedError(f"native cribbage plays the {players} players of preset "
                                  f"{getattr(rules, 'preset', '?')!r} (two to four), not {num_players}")


cdef int set_rules(Game* g, object rules) except -1:
    """The rules as ints in the game: the deal, the options of the muggins rule. A fresh ``Game`` needs this
    before ``new_game`` (it also turns the event log off: the owner of a log points ``g.log`` at it after)."""
    cdef int i
    g.log = NULL
    g.w_open = 0
    g.due = 0
    g.external = 0
    g.pending = 0
    g.manual = rules.claims == "manual"
    g.lenient = rules.claim_timing == "lenient"
    g.mug_rule = _OUTCOMES.index(rules.muggins)
    g.over_penalty = rules.over_claim == "opponent_scores"
    g.false_call = ("none", "deduct", "award").index(rules.false_call_penalty)
    g.false_points = rules.false_call_points
    for i in range(5):
        g.award_cap[i] = rules.max_points_of(_REASONS[i])
    g.mug_heels = bool(rules.mug_his_heels)
    g.claim = CLAIM_NONE
    g.nplayers = rules.players
    g.nsides = 2 if rules.players == 4 else rules.players
    g.each = rules.cards_each
    g.discard_each = rules.discard_each
    g.crib_dealt = rules.crib_dealt
    g.npack = 52 - g.nplayers * g.each - g.crib_dealt
    g.five_card = bool(rules.five_card)
    return 0


cdef int _policy(object policy) except -1:
    if policy in (0, "random"):
        return POLICY_RANDOM
    if policy in (1, "greedy"):
        return POLICY_GREEDY
    raise ValueError(f"policy is 0 (random) or 1 (greedy), not {policy!r}")


#: the int object of each id below N_IDS_CACHED, made once: a list of legal ids takes them, allocating none
cdef tuple _INTS = tuple(range(N_IDS_CACHED))


cdef inline object _int(int i):
    return <object>PyTuple_GET_ITEM(_INTS, i) if 0 <= i < N_IDS_CACHED else i


cdef inline long _small(object x) noexcept:
    """The value of the int ``x`` (an exact int), or -1 when it is negative or does not fit a C long."""
    return muggins_small_int(<PyObject*>x)


cdef inline int seat_arg(object seat, int n) except -1:
    """``seat`` as a C int when it is a seat of ``n`` players (a plain int), else NoSuchSeat (``check_seat``)."""
    cdef long s = _small(seat) if type(seat) is int else -1
    if s < n:
        return <int>s if s >= 0 else check_seat(seat, n)
    return check_seat(seat, n)


#: every set of seats, by its bit mask (who waits, who may act: no set is built per call)
cdef tuple _SEATS = tuple(frozenset(s for s in range(4) if (m >> s) & 1) for m in range(16))


cdef inline int waiting_mask(Game* g) noexcept nogil:
    """A bit per seat the game waits for: those still to lay away, else the seat to play or count (none once
    over), worked out with no branch on the phase."""
    return (g.to_discard & -<int>(g.phase == PH_DISCARD)) | \
        ((1 << (g.turn & 3)) & -<int>((g.phase == PH_PLAY) | (g.phase == PH_SHOW)))


cdef struct Spare:
    int* buf        # the log memory of a game freed, kept for the next new game (NULL: none)
    long cap


cdef Spare SPARE_EV, SPARE_DRAWN, SPARE_HIST
SPARE_EV.buf = SPARE_DRAWN.buf = SPARE_HIST.buf = NULL


cdef inline void keep_spare(Spare* spare, int* buf, long cap) noexcept:
    """Keep ``buf`` (``cap`` ints; freed by its game) for the next game when none is kept and it is not large;
    else free it."""
    if spare.buf == NULL and 0 < cap <= 1 << 16:
        spare.buf = buf
        spare.cap = cap
    else:
        free(buf)


cdef inline int* take_spare(Spare* spare, long* cap) noexcept:
    """The memory kept by :func:`keep_spare` (its size in ``cap``), or NULL (``cap`` 0)."""
    cdef int* buf = spare.buf
    cap[0] = spare.cap if buf != NULL else 0
    spare.buf = NULL
    return buf


cdef class NativeCribbage:
    """One two-player cribbage game in C data; integer ids in and out (see the module docstring)."""

    cdef int layout(self, object rules) except -1:
        from math import comb

        set_rules(&self.g, rules)
        self.rules = rules
        self.width = rules.max_step_points + 2 if rules.claims == "manual" else 1
        self.id_play = comb(52, rules.discard_each)
        self.id_go = self.id_play + 52 * self.width
        self.id_count = self.id_go + self.width
        self.id_muggins = self.id_count + 2 * self.width
        self.id_claim = self.id_muggins + (rules.max_step_points + 2)
        self.id_size = self.id_claim + rules.max_step_points + 1 if self.width > 1 else self.id_muggins
        self.same_ids = self.width == 1 and self.id_play == ID_PLAY and self.id_go == ID_GO and \
            self.id_count == ID_COUNT_HAND
        return 0

    def __cinit__(self) -> None:
        self.g.log = NULL
        self.evlog.buf = NULL
        self.evlog.n = 0
        self.evlog.cap = 0
        self.evlog.owner = <void*>&self.g
        idlog_init(&self.hist)
        self.keep_hist = 0
        self.own_rng = 0
        self.drawn.buf = NULL
        self.drawn.n = 0
        self.drawn.cap = 0
        self.noffer = 0

    def __dealloc__(self) -> None:
        keep_spare(&SPARE_EV, self.evlog.buf, self.evlog.cap)
        keep_spare(&SPARE_DRAWN, self.drawn.buf, self.drawn.cap)
        keep_spare(&SPARE_HIST, self.hist.buf, self.hist.cap)

    cdef int record(self, int seat, int i) except -1:
        if self.keep_hist:
            idlog_push(&self.hist, seat, i)
        return 0

    cdef int resume(self) except -1:
        """Make the deal or the cut the game waits for: from the owner's generator while the engine holds it
        (take_rng), else from the owner's chance, or (none) the generator."""
        cdef Game* g = &self.g
        cdef int i
        while g.pending:
            if self.own_rng:
                if g.pending == 1:
                    self.mt_deal()
                else:
                    g.feed_cut = 4 + mt_below(&self.mt, g.npack - 7)  # draw_cut: randint(4, m - 4)
                    draw_push(&self.drawn, DRAW_CUT, g.feed_cut, 1)[0] = g.pack[g.feed_cut]
            elif self.deal_fn is None and not self.owner_deals:
                g.external = 0
            elif g.pending == 1:
                got = owner_of(self.owner)._draw_deal(g.dealer) if self.owner_deals else self.deal_fn(g.dealer)
                if got is None:  # the owner handed its generator over (take_rng): draw it here
                    if not self.own_rng:
                        raise RuntimeError("the deal function gave no deal and no generator")
                    continue
                hands, pack, crib = got
                self.feed_deal(hands, pack, crib)
            else:
                pack = [g.pack[i] for i in range(g.npack)]
                got = owner_of(self.owner)._draw_cut(pack) if self.owner_deals else self.cut_fn(pack)
                if got is None:
                    if not self.own_rng:
                        raise RuntimeError("the cut function gave no cut and no generator")
                    continue
                g.feed_cut = got
            if g.pending == 1:
                g.pending = 0
                deal(g)
            else:
                g.pending = 0
                cut_starter(g)
        return 0

    cdef int mt_deal(self) except -1:
        """The next deal drawn as ``game.draw_deal`` draws it from the held generator (a sort of the pack by
        ``random()`` keys), fed to the game and recorded."""
        cdef Game* g = &self.g
        cdef int* deck = draw_push(&self.drawn, DRAW_DEAL, g.dealer, 52)
        cdef int n = g.nplayers, each = g.each, s, j, k = 0
        mt_sort_shuffle(&self.mt, deck)
        for s in range(n):  # seat s gets every n-th card from its place after the dealer
            for j in range(each):
                g.feed_cards[k] = deck[j * n + (s - g.dealer - 1 + n) % n]
                k += 1
        for j in range(n * each, 52):  # the crib's card(s), then the pack
            g.feed_cards[j] = deck[j]
        g.feed_deal = 1
        return 0

    def take_rng(self, seed: object = None, state: object = None) -> None:
        """Hold the owner's generator from now on: ``random.Random(seed)`` for an int ``seed``, or the
        ``random.Random`` state ``state``; later deals and cuts are drawn here as the pure engine draws them
        from it (the same numbers), recorded for :meth:`take_drawn`."""
        if state is not None:
            mt_load(&self.mt, state)
        else:
            mt_seed(&self.mt, seed)
        self.own_rng = 1

    def release_rng(self) -> tuple | None:
        """Stop holding the generator; its state (for ``random.Random.setstate``), None if none was held."""
        if not self.own_rng:
            return None
        self.own_rng = 0
        return mt_state(&self.mt)

    def holds_rng(self) -> bool:
        return bool(self.own_rng)

    def num_drawn(self) -> int:
        """The outcomes drawn and not taken yet."""
        return self.drawn.n // DRAW_WIDTH

    def take_drawn(self) -> list:
        """The outcomes drawn from the held generator since the last call, in order, as ``(kind, a, b,
        cards)``: (1 deal, dealer, 52, the pack shuffled), (2 cut, position, 1, [card]), (0 cut for the deal,
        seat mask, k, k cards)."""
        return draw_take(&self.drawn) if self.drawn.n else []

    @staticmethod
    def start(rules: object, seed: object = None, state: object = None) -> NativeCribbage:
        """A new game as ``CribbageState.new`` starts it from a chance with nothing recorded and the generator
        ``random.Random(seed)`` (or in ``state``): the cut for the deal and the first deal drawn here (see
        :meth:`take_rng`, :meth:`take_drawn`); the event log starts after them."""
        cdef NativeCribbage n = NativeCribbage.__new__(NativeCribbage)
        cdef NativeCribbage proto = _prototype(rules)
        cdef Game* g = &n.g
        cdef int dealer
        n.g = proto.g
        n.rules = rules
        n.id_play, n.id_go, n.id_count = proto.id_play, proto.id_go, proto.id_count
        n.id_muggins, n.id_claim, n.id_size, n.width = proto.id_muggins, proto.id_claim, proto.id_size, proto.width
        n.same_ids = proto.same_ids
        seed_game(g, 0)
        n.take_rng(seed, state)
        n.drawn.buf = take_spare(&SPARE_DRAWN, &n.drawn.cap)
        dealer = mt_cut_for_deal(&n.mt, &n.drawn, g.nplayers, rules.first_dealer_by != "high")
        g.log = &n.evlog
        g.external = 1
        n.keep_hist = 1
        n.evlog.buf = take_spare(&SPARE_EV, &n.evlog.cap)  # (a new game's logs reuse a finished game's memory)
        n.hist.buf = take_spare(&SPARE_HIST, &n.hist.cap)
        new_game(g, rules.target, dealer)
        n.resume()
        n.evlog.n = 0
        return n

    def follow_chance(self, deal_fn: object, cut_fn: object = None) -> None:
        """Draw every later deal from ``deal_fn(dealer) -> (hands, pack, crib)`` (as :meth:`feed_deal` takes
        them) and every cut from ``cut_fn(pack) -> position`` (``pack`` the undealt card indices), called when
        the game needs them, and keep the history of moves (:meth:`history_ids`): a game that follows another
        engine's chance, outcome by outcome. None: chance from the generator again."""
        self.deal_fn = deal_fn
        self.cut_fn = cut_fn
        self.owner_deals = 0
        self.g.external = deal_fn is not None
        self.keep_hist = 1
        if self.g.pending:
            self.resume()

    def history_ids(self, start: int = 0) -> list:
        """(seat, id) of every move :meth:`apply_id` applied since :meth:`follow_chance`, from the
        ``start``-th on."""
        return idlog_list(&self.hist, max(0, start))

    def num_moves(self) -> int:
        return self.hist.n // 2

    cdef int copy_log(self, EvLog src) except -1:
        """Start this game's log as a copy of ``src``."""
        cdef long i
        if src.n:
            self.evlog.buf = <int*>realloc(self.evlog.buf, src.n * sizeof(int))
            if self.evlog.buf == NULL:
                raise MemoryError("no memory for the event log")
            for i in range(src.n):
                self.evlog.buf[i] = src.buf[i]
            self.evlog.cap = src.n
        self.evlog.n = src.n
        self.g.log = &self.evlog
        return 0

    def set_logging(self, on: bool) -> None:
        """Keep the event log (:meth:`events`) from now on, or stop keeping it (it is on in a new game, off
        in a playout and in module-level ``from_state``'s rollout copies). Turning it off forgets the log."""
        if on:
            self.g.log = &self.evlog
        else:
            self.g.log = NULL
            self.evlog.n = 0

    def logging(self) -> bool:
        return logging(&self.g)

    def num_events(self) -> int:
        return self.evlog.n // EV_WIDTH if logging(&self.g) else 0

    def events(self, start: int = 0) -> list:
        """The events since the game was made here (``__init__`` or ``from_state``), from the ``start``-th on,
        as the pure engine logs them (``state.log[k + start:]`` for a game taken at log length ``k``)."""
        if not logging(&self.g):
            raise ValueError("this game keeps no event log (set_logging(True) turns it on)")
        return _events(self.evlog.buf, self.evlog.n // EV_WIDTH, max(0, start), self.rules)

    def __init__(self, target: int = 121, seed: int = 0, dealer: int = -1, rules: object = None) -> None:
        """A new game to ``target``, its deals drawn from ``seed``; ``dealer`` -1 draws the first dealer.
        ``rules`` (a CribbageRules, its own target) plays another preset than two-player ``cribbage``."""
        from muggins.cards.cribbage.rules import PRESETS

        if rules is None:
            if not 1 <= target <= 1000:
                raise ValueError(f"target is 1-1000, not {target}")
            rules = PRESETS["cribbage"] if target == 121 else PRESETS["cribbage-61"] if target == 61 else \
                dataclasses.replace(PRESETS["cribbage"], target=target)
        check_rules(rules, rules.players)
        if not -1 <= dealer < rules.players:
            raise ValueError(f"dealer is a seat 0-{rules.players - 1} or -1 (drawn), not {dealer}")
        target = rules.target
        seed_game(&self.g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
        self.layout(rules)
        self.g.log = &self.evlog
        new_game(&self.g, target, dealer)

    @staticmethod
    def from_state(state: object) -> NativeCribbage:
        """The position of a pure ``CribbageState`` at any point (hidden cards included); later chance
        comes from the native generator (seed 0) unless fed."""
        from muggins.cards.cribbage.game import CribbageState

        cdef NativeCribbage n = NativeCribbage.__new__(NativeCribbage)
        cdef NativeCribbage other
        cdef Game* g = &n.g
        if not isinstance(state, CribbageState):
            other = getattr(state, "native", None) if not isinstance(state, NativeCribbage) else state
            if not isinstance(other, NativeCribbage):
                raise TypeError(f"from_state takes a CribbageState, not {type(state).__name__}")
            n.layout(other.rules)  # a native-backed state: its position, the log empty
            n.g = other.g
            n.g.log = &n.evlog
            n.g.external = 0
            n.g.pending = 0
            seed_game(g, 0)
            return n
        check_rules(state.rules, state.num_players)
        n.layout(state.rules)
        g.log = &n.evlog
        seed_game(g, 0)
        g.feed_cut = -1
        g.feed_deal = 0
        g.target = state.rules.target
        g.hand_no = state.hand_no
        g.dealer = state.dealer
        phase = state.phase
        if state.is_over():
            phase = "over"
        if phase not in _PHASES:
            raise NotImplementedError(f"native cribbage cannot take a state in phase {phase!r}")
        g.phase = _PHASES.index(phase)
        sc = state.side_scores() + [0, 0]
        for i in range(3):
            g.scores[i] = sc[i]
        winners = sorted(state.winners())
        g.winner = state.side_of(winners[0]) if state.is_over() and winners else -1
        g.turn = state.turn if g.phase in (PH_PLAY, PH_SHOW) else -1
        g.count = state.count
        g.to_discard = state._to_discard
        for s in range(4):
            g.held[s] = _mask(state.hands[s]) if s < g.nplayers else 0
            g.kept[s] = _mask(state.kept[s]) if s < g.nplayers else 0
        g.crib = _mask(state.crib)
        pack = [c.index for c in state.pack]
        if len(pack) != g.npack:
            raise NotImplementedError(f"this deal leaves {g.npack} undealt cards, not {len(pack)}")
        for i in range(g.npack):
            g.pack[i] = pack[i]
        g.starter = state.starter.index if state.starter is not None else -1
        g.cut = state._cut
        ranks = list(state._ranks)
        g.nranks = len(ranks)
        for i in range(len(ranks)):
            g.ranks[i] = ranks[i]
        g.gone = state._gone
        g.last = state._last
        for s in range(4):
            g.discards[s] = _mask(state.discards[s]) if s < g.nplayers else 0
        g.pile = _mask([c for _, c in state._pile])
        g.series = _mask([c for p in state._old_series for _, c in p])
        g.shown = _mask([c for x in state._shows if x[1] == "hand" for c in x[2]])
        g.crib_shown = bool(state._crib_shown)
        for s in range(4):
            g.go_floor[s] = state._go_floor[s] if s < g.nplayers else 0
        g.show_i = state._show_i if g.phase == PH_SHOW else 0
        w = state._window
        g.w_open = w is not None
        if w is not None:
            g.w_scorer = w.scorer
            g.w_side = w.scorer_side
            g.w_missed = w.missed
            g.w_claimed = CLAIM_NONE if w.claimed is None else w.claimed
            g.w_reason = _REASONS.index(w.reason)
            g.w_what = _WHATS.index(w.what)
            g.w_may = w.may_claim
            g.w_late = w.late
        due = state._explain_due
        g.due = 0
        if due is not None:
            g.due = 2 if due[1] == "crib" else 1
            g.due_seat = due[0]
            g.due_mask = _mask(due[2])
            g.due_starter = due[5].index
        return n

    def seed(self, seed: int) -> None:
        """Draw later chance (deals, cuts) from ``seed``."""
        seed_game(&self.g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))

    def feed_deal(self, hands: object, pack: object, crib: object = ()) -> None:
        """Make the next deal this one: ``hands`` the card indices of each seat, ``crib`` the card dealt to
        the crib (three players), ``pack`` the rest in order (another engine's outcome, to follow its game)."""
        cdef Game* g = &self.g
        cards = [int(c) for h in hands for c in h] + [int(c) for c in crib] + [int(c) for c in pack]
        if len(hands) != g.nplayers or any(len(h) != g.each for h in hands) or len(crib) != g.crib_dealt \
                or sorted(cards) != list(range(52)):
            raise ValueError(f"a deal is {g.nplayers} hands of {g.each} cards, {g.crib_dealt} card(s) to the crib "
                             f"and a pack of {g.npack}, every card once")
        for i in range(52):
            self.g.feed_cards[i] = cards[i]
        self.g.feed_deal = 1

    def feed_cut(self, k: int) -> None:
        """Make the next cut turn ``pack[k]`` (4 <= k <= 36)."""
        if not 4 <= k <= self.g.npack - 4:
            raise ValueError(f"a cut leaves four cards each side: 4-{self.g.npack - 4}, not {k}")
        self.g.feed_cut = k

    def clone(self) -> NativeCribbage:
        cdef NativeCribbage c = NativeCribbage.__new__(NativeCribbage)
        cdef long i
        c.g = self.g
        c.g.log = NULL
        c.rules = self.rules
        c.deal_fn = self.deal_fn
        c.cut_fn = self.cut_fn
        c.owner = self.owner
        c.owner_deals = self.owner_deals
        c.keep_hist = self.keep_hist
        idlog_copy(&c.hist, &self.hist)
        if self.own_rng:
            c.mt = self.mt
            c.own_rng = 1
        draw_copy(&c.drawn, &self.drawn)
        c.id_play, c.id_go, c.id_count = self.id_play, self.id_go, self.id_count
        c.id_muggins, c.id_claim, c.id_size, c.width = self.id_muggins, self.id_claim, self.id_size, self.width
        c.same_ids = self.same_ids
        if logging(&self.g):
            c.copy_log(self.evlog)
        return c

    def legal_ids(self, int seat) -> list:
        """The ids ``seat`` may use now, ascending (``state.legal_action_mask``): with claims, each scoring
        move with every claim code, then a muggins call or a late claim while the window allows it."""
        return self.legal_list(seat)

    cdef list legal_list(self, int seat):
        cdef Game* g = &self.g
        cdef uint64_t held, fit, m, rest
        cdef int a, b, w = self.width, start, n
        cdef int ids[N_IDS]
        if w == 1 and not g.w_open:  # the automatic game: the ids of the own moves, made into a list at once
            n = own_moves(g, seat, ids, 1, N_IDS)
            if not self.same_ids:
                for a in range(n):
                    ids[a] = self.external_id(ids[a])
            return self.id_list(ids, n)
        out = []
        if not 0 <= seat < g.nplayers or g.phase == PH_OVER:
            return out
        if g.phase == PH_DISCARD:
            if (g.to_discard >> seat) & 1 and g.discard_each == 1:
                out.extend(_cards(g.held[seat]))
            elif (g.to_discard >> seat) & 1:
                held = g.held[seat]
                m = held
                while m:  # ids c1 + c2 (c2 - 1) / 2 ascend with c2, then c1
                    b = lowbit(m)
                    m &= m - 1
                    rest = held & ((<uint64_t>1 << b) - 1)
                    while rest:
                        a = lowbit(rest)
                        rest &= rest - 1
                        out.append(_int(a + b * (b - 1) // 2))
        elif seat == g.turn:
            if g.phase == PH_PLAY:
                fit = fitting(g.held[seat], g.count)
                if w == 1:
                    if not fit:
                        return [_int(self.id_go)]
                    while fit:
                        out.append(_int(self.id_play + lowbit(fit)))
                        fit &= fit - 1
                    return out
                if not fit:
                    out.extend(range(self.id_go, self.id_go + w))
                while fit:
                    start = self.id_play + lowbit(fit) * w
                    out.extend(range(start, start + w))
                    fit &= fit - 1
            else:
                start = self.id_count + (w if g.show_i == g.nplayers else 0)
                if w == 1:
                    return [_int(start)]
                out.extend(range(start, start + w))
        if g.w_open:
            if side_of(g, seat) != g.w_side:
                out.extend(range(self.id_muggins, self.id_claim))
            elif seat == g.w_scorer and g.w_may:
                out.extend(range(self.id_claim, self.id_size))
        return out

    cdef list id_list(self, const int* ids, int n):
        """A list of the ints ``ids[:n]`` (ids of the automatic game, below N_IDS_CACHED): the last one given
        refilled when nobody holds it any more."""
        out = muggins_refill(<PyObject*>self.ids_kept, tuple_items(_INTS), ids, n, 16)
        if out is not self.ids_kept:
            self.ids_kept = out
        return out

    def bind_actions(self, table: tuple, ids: dict, window: object, slow: object) -> None:
        """Serve the owner's :meth:`legal_actions` and :meth:`apply_action`: ``table`` the Action of each
        internal id (:meth:`regular_actions`), ``ids`` the action id of each of them by ``id()`` of the
        object, ``window(seat)`` the Actions a muggins window adds, ``slow(seat, action)`` the owner's apply
        for any other action or a refusal."""
        self.act_table = table
        self.act_ids = ids
        self.act_window = window
        self.act_slow = slow
        self.noffer = 0

    def bind_owner(self, owner: object, table: tuple, ids: dict) -> None:
        """Serve the state ``owner`` refers to (a weak reference: the game keeps no state alive): its
        :meth:`legal_actions` and :meth:`apply_action` as :meth:`bind_actions` with its ``_window_actions`` and
        ``_apply``, its chance as :meth:`follow_chance` with its ``_draw_deal`` and ``_draw_cut`` (one reference
        held, called back by name, for a new state at no cost of its own). ReferenceError once it is gone."""
        self.act_table = table
        self.act_ids = ids
        self.act_window = self.act_slow = self.deal_fn = self.cut_fn = None
        self.noffer = 0
        self.owner = owner
        self.owner_deals = 1
        self.g.external = 1
        self.keep_hist = 1
        if self.g.pending:
            self.resume()

    def legal_actions(self, seat: object) -> list:
        """As the pure state's ``legal_actions`` (see :meth:`bind_actions`)."""
        cdef Game* g = &self.g
        cdef int s = seat_arg(seat, g.nplayers)
        out = self.actions_of(s, self.act_table, 1)
        if g.w_open and not g.phase == PH_OVER:
            out.extend(window_actions(self.act_window, self.owner, s))
        return out

    def apply_action(self, seat: object, action: object) -> None:
        """As the pure state's ``apply``: an Action of the table by its id (one :meth:`legal_actions` just
        offered is found by its identity among those offered, checked in C and applied), anything else (and a
        refusal) by the owner's apply."""
        cdef Game* g = &self.g
        cdef PyObject* p = <PyObject*>action
        cdef int j, k
        cdef long s
        if self.noffer and type(seat) is int:
            s = _small(seat)
            if 0 <= s < g.nplayers:
                for j in range(self.noffer):
                    k = self.offer[j]
                    if PyTuple_GET_ITEM(self.act_table, k) == p:
                        if legal_check(g, s, k) == 0:
                            self.do_move(s, k, CLAIM_NONE, self.external_id(k))
                            return
                        break
        i = self.act_ids.get(id(action))
        if i is None or type(seat) is not int:
            apply_slowly(self.act_slow, self.owner, seat, action)
            return
        try:
            self.apply_checked(seat, i)
        except IllegalAction:
            apply_slowly(self.act_slow, self.owner, seat, action)  # refuses it again, in the reference engine's words

    def regular_actions(self, int seat, tuple table) -> list:
        """The Actions of ``seat``'s own moves now (no muggins call or late claim), in the pure engine's order
        (``CribbageState._regular``: discards as combinations of the sorted hand, plays by card, else go, the
        next count): ``table`` holds the Action of each internal id (a discard's id, ``1326 + card``, go 1378,
        count hand 1379, count crib 1380)."""
        return self.actions_of(seat, table, 0)

    cdef list actions_of(self, int seat, tuple table, bint offer):
        """The Actions of ``seat``'s own moves now; ``offer``: their internal ids kept as the offer
        :meth:`apply_action` knows (``table`` is then the bound one)."""
        cdef int ids[N_IDS]
        cdef int n
        if offer:
            self.noffer = 0
        if len(table) != N_IDS:
            return []
        n = own_moves(&self.g, seat, ids, 0, N_IDS)
        out = muggins_refill(<PyObject*>self.acts_kept, tuple_items(table), ids, n, 16)  # (the last list given,
        if out is not self.acts_kept:  # refilled when nobody holds it any more)
            self.acts_kept = out
        if offer and n <= MAX_OFFER:
            memcpy(self.offer, ids, n * sizeof(int))
            self.noffer = n
        return out

    def legal_action_ids(self, seat: object) -> list:
        """As ``GameState.legal_action_ids``: one id per legal action, ascending (each move claiming nothing, a
        muggins call naming nothing, a late claim of its true amount); NoSuchSeat for a bad seat."""
        cdef Game* g = &self.g
        cdef int w = self.width
        cdef int s = seat_arg(seat, g.nplayers)
        if w == 1:
            return self.legal_list(s)
        out = []
        for i in self.legal_list(s):
            if i < self.id_muggins:
                if i < self.id_play or (i - (self.id_play if i < self.id_go else self.id_go if i < self.id_count else self.id_count)) % w == 0:
                    out.append(i)
            elif i == self.id_muggins or (i >= self.id_claim and i - self.id_claim == min(g.w_missed, g.w_late)):
                out.append(i)
        return out

    def apply_action_id(self, seat: object, i: object) -> None:
        """As ``GameState.apply_action_id``: NoSuchSeat, GameOver, UnknownAction (no such id), IllegalAction (not
        legal for ``seat`` now; a subclass names why), the game unchanged."""
        cdef Game* g = &self.g
        cdef long s, k
        if type(seat) is int and type(i) is int and g.phase != PH_OVER:
            s = _small(seat)
            k = _small(i)
            if 0 <= s < g.nplayers and 0 <= k < self.id_size:
                self.apply_int(s, k)
                return
        if type(seat) is not int or not 0 <= seat < g.nplayers:
            check_seat(seat, g.nplayers)
        if g.phase == PH_OVER:
            raise GameOver("the game is over")
        if type(i) is not int:
            raise UnknownAction(f"an action id is a whole number 0-{self.id_size - 1}, not {shown(i)}")
        self.apply_checked(seat, i)

    def apply_id(self, seat: int, i: int) -> None:
        """Apply id ``i`` for ``seat``, or raise (GameOver, NotYourTurn, UnknownAction, IllegalAction,
        ClaimError) leaving the game unchanged."""
        self.apply_checked(seat, i)

    cdef int apply_checked(self, object seat, object i) except -1:
        if not 0 <= seat < self.g.nplayers:
            raise NotYourTurn(f"there is no seat {seat} in a {self.g.nplayers}-player game")
        if not 0 <= i < self.id_size:
            raise UnknownAction(f"cribbage ids run 0-{self.id_size - 1} under these rules; {i} is none")
        return self.apply_int(seat, i)

    cdef int apply_int(self, int seat, int i) except -1:
        cdef int internal, claim = CLAIM_NONE, code, w = self.width
        cdef Game* g = &self.g
        if g.phase == PH_OVER:
            raise GameOver("the game is over")
        if i >= self.id_muggins:
            if i < self.id_claim:
                if not g.w_open:
                    raise ClaimError("no muggins window is open: a call must come before the next move (in the "
                                     "show, before the next count)")
                if side_of(g, seat) == g.w_side:
                    raise ClaimError("you cannot call muggins on your own side")
                call_muggins(g, seat, i - self.id_muggins - 1)
            else:
                if not (g.w_open and seat == g.w_scorer and g.w_may):
                    raise ClaimError("there is nothing for you to claim now")
                late_claim(g, seat, i - self.id_claim)
            self.record(seat, i)
            return 0
        if i < self.id_play or self.same_ids:  # (the automatic two-player game's ids are the internal ones)
            internal = i
        else:
            if i < self.id_go:
                internal = ID_PLAY + (i - self.id_play) // w
                code = (i - self.id_play) % w
            elif i < self.id_count:
                internal = ID_GO
                code = i - self.id_go
            else:
                internal = ID_COUNT_HAND + (i - self.id_count) // w
                code = (i - self.id_count) % w
            if w > 1 and code > 0:
                claim = code - 1
        why = legal_check(g, seat, internal)
        if why == 2:
            raise NotYourTurn(f"seat {seat} has no move now (to move: seat {to_move(g)})")
        if why == 3:
            raise IllegalAction(f"id {i} is not a legal move of seat {seat} now")
        return self.do_move(seat, internal, claim, i)

    cdef int do_move(self, int seat, int internal, int claim, int i) except -1:
        """Apply the legal internal move ``internal`` of ``seat`` announcing ``claim``; ``i`` its id."""
        cdef Game* g = &self.g
        g.claim = claim
        apply_legal(g, seat, internal)
        g.claim = CLAIM_NONE
        self.record(seat, i)
        if g.pending:
            self.resume()
        return 0

    cdef int external_id(self, int internal) noexcept:
        """The id under these rules of the internal move ``internal`` claiming nothing."""
        if internal < ID_PLAY:
            return internal
        if internal < ID_GO:
            return self.id_play + (internal - ID_PLAY) * self.width
        if internal == ID_GO:
            return self.id_go
        return self.id_count + (internal - ID_COUNT_HAND) * self.width

    def window(self) -> tuple | None:
        """(scorer, missed, claimed or None, reason, may claim, late) of the open window, or None."""
        cdef Game* g = &self.g
        if not g.w_open:
            return None
        return (g.w_scorer, g.w_missed, None if g.w_claimed == CLAIM_NONE else g.w_claimed, _REASONS[g.w_reason],
                bool(g.w_may), g.w_late)

    def to_act(self) -> frozenset:
        """The seats that may act now: those the game waits for and, while a window is open, the scorer's
        opponents (a call) and the scorer if he may still claim."""
        cdef Game* g = &self.g
        cdef int s, m
        if g.phase == PH_OVER:
            return _SEATS[0]
        m = waiting_mask(g)
        if g.w_open:
            for s in range(g.nplayers):
                if side_of(g, s) != g.w_side:
                    m |= 1 << s
            if g.w_may:
                m |= 1 << g.w_scorer
        return _SEATS[m]

    def to_move(self) -> int:
        """The seat to act (while discarding, the first that still has to lay away); -1 once over."""
        return to_move(&self.g)

    def waiting_for(self) -> frozenset:
        return _SEATS[waiting_mask(&self.g)]

    def is_over(self) -> bool:
        return self.g.phase == PH_OVER

    def winner(self) -> int:
        """The winning side, -1 while the game goes on."""
        return self.g.winner

    def side_scores(self) -> tuple:
        return tuple(self.g.scores[i] for i in range(self.g.nsides))

    def phase(self) -> str:
        return _PHASES[self.g.phase]

    def turn(self) -> int:
        return self.g.turn

    def dealer(self) -> int:
        return self.g.dealer

    def hand_no(self) -> int:
        return self.g.hand_no

    def count(self) -> int:
        return self.g.count

    def starter(self) -> int:
        return self.g.starter

    def held(self, int seat) -> list:
        """The card indices ``seat`` holds now, ascending."""
        return _cards(self.g.held[seat & 3])

    def kept(self, int seat) -> list:
        return _cards(self.g.kept[seat & 3])

    def crib(self) -> list:
        return _cards(self.g.crib)

    def view_ints(self) -> tuple:
        """What a view reads of the position beyond the accessors above: (seats still to lay away as a bit
        mask, seats gone in this series as a bit mask, the last card's player or -1, the show's place, whether
        a show's true count waits for its window to close, the crib's size, the size of each hand)."""
        cdef Game* g = &self.g
        return (g.to_discard, g.gone, g.last, g.show_i, g.due, popcount(g.crib),
                [popcount(g.held[s]) for s in range(g.nplayers)])

    def pack(self) -> tuple:
        """(the undealt cards in order, the starter's place among them or -1 before the cut)."""
        cdef Game* g = &self.g
        return [g.pack[i] for i in range(g.npack)], g.cut if g.starter >= 0 else -1

    def move_points(self, int seat, int i) -> int:
        """The points internal id ``i`` (a play 1326 + card, go 1378, a count 1379 or 1380) would make for
        ``seat`` now, 0 for a move he cannot make (``claim_for``: what a perfect player announces)."""
        cdef Game* g = &self.g
        if seat != g.turn or seat < 0:
            return 0
        if g.phase == PH_PLAY:
            if i == ID_GO:
                return 1 if seat == g.last else 0
            if ID_PLAY <= i < ID_GO and (g.held[seat] >> (i - ID_PLAY)) & 1 and \
                    g.count + card_value(i - ID_PLAY) <= 31:
                return true_play_points(g, seat, i - ID_PLAY)
            return 0
        if g.phase == PH_SHOW and (i == ID_COUNT_HAND or i == ID_COUNT_CRIB):
            return true_points(g, seat, i)
        return 0

    def choose_id(self, policy: object = 0) -> int:
        """The id ``policy`` (0 random, 1 greedy) picks for the seat to move (``to_move``), drawing from the
        game's generator; -1 once the game is over. Changes nothing else."""
        cdef int p = _policy(policy)
        cdef int seat, i
        if self.g.phase == PH_OVER:
            return -1
        seat = to_move(&self.g)
        i = choose(&self.g, seat, p)
        return self.external(i, true_points(&self.g, seat, i) if self.width > 1 else CLAIM_NONE)

    cdef int external(self, int i, int claim):
        """The id of docs/actions.md of internal id ``i`` (the two-player automatic numbering the C code
        uses) announcing ``claim`` (CLAIM_NONE: nothing)."""
        cdef int code = 0 if claim < 0 or self.width == 1 else claim + 1
        if i < ID_PLAY:
            return i
        if i < ID_GO:
            return self.id_play + (i - ID_PLAY) * self.width + code
        if i == ID_GO:
            return self.id_go + code
        return self.id_count + (i - ID_COUNT_HAND) * self.width + code

    def playout(self, policy: object = 0, seed: int = 0, max_moves: int = 1 << 30, until_hand_end: bool = False,
                greedy: float | None = None) -> int:
        """Play on in C, from here, until the game is over, ``max_moves`` moves were made or, with
        ``until_hand_end``, the next deal is made; both seats use ``policy`` (0 random, 1 greedy), chance
        and choices are drawn from ``seed``. ``greedy`` (a probability) plays the search bot's rollout
        instead: each play the one announcing the most points with that probability (ties at random), else
        uniform; discards uniform. Returns the moves made. The game itself moves on: clone first to keep
        the position."""
        cdef int p = _policy(policy) if greedy is None else 2
        cdef long cap = max_moves
        cdef long done
        cdef int until = bool(until_hand_end)
        cdef double q = 1.0 if greedy is None else greedy
        if cap < 0:
            raise ValueError("max_moves cannot be negative")
        if greedy is not None and not 0.0 <= greedy <= 1.0:
            raise ValueError(f"greedy is a probability (0 to 1), not {greedy!r}")
        cdef int external = self.g.external
        seed_game(&self.g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
        self.g.external = 0  # a playout draws its chance from the generator
        with nogil:
            done = run_playout(&self.g, p, cap, until, q)
        self.g.external = external
        return done

    def winners(self) -> list:
        """The winning sides (partners share one with four players): one once over, none before."""
        return [self.g.winner] if self.g.winner >= 0 else []


cdef dict _PROTOTYPES = {}


cdef NativeCribbage _prototype(object rules):
    """A game with ``rules`` laid out (``layout``), made once per rules object: a new game copies it."""
    cdef NativeCribbage proto
    hit = _PROTOTYPES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    check_rules(rules, rules.players)
    proto = NativeCribbage.__new__(NativeCribbage)
    proto.layout(rules)
    if len(_PROTOTYPES) > 64:
        _PROTOTYPES.clear()
    _PROTOTYPES[id(rules)] = (rules, proto)
    return proto


def from_state(state: object, seed: int = 0) -> NativeCribbage:
    """:meth:`NativeCribbage.from_state` with its generator seeded: every native engine's module offers it
    (the search bot's rollouts)."""
    cdef NativeCribbage n = NativeCribbage.from_state(state)
    seed_game(&n.g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
    n.g.log = NULL
    return n


cdef uint64_t _mask(object cards) except? 0:
    cdef uint64_t m = 0
    for c in cards:
        m |= <uint64_t>1 << <int>c.index
    return m


cdef list _cards(uint64_t m):
    out = []
    while m:
        out.append(lowbit(m))
        m &= m - 1
    return out


def show_points(hand: object, starter: int, crib: bool = False) -> int:
    """Points of four card indices with the starter index, counted in C (as show.score_show)."""
    cdef uint64_t m = 0
    cards = [int(c) for c in hand]
    if len(cards) != 4 or len(set(cards + [starter])) != 5 or not all(0 <= c < 52 for c in cards + [starter]):
        raise ValueError("a show is four different cards 0-51 and a starter not among them")
    for c in cards:
        m |= <uint64_t>1 << c
    return show_score(m, starter, crib)


def random_games_native(rules: object, seconds: float = 1.0, seed: int = 0, policy: object = 0) -> dict:
    """Whole games from native deals with ``policy`` (uniform random by default) for about ``seconds`` of
    CPU time on this core: the throughput figure of ``muggins bench`` and benchmarks/."""
    check_rules(rules, getattr(rules, "players", 2))
    cdef int p = _policy(policy)
    cdef Game g
    cdef long games = 0, moves = 0
    cdef int target = rules.target
    cdef clock_t start = clock()
    cdef clock_t limit = <clock_t>(seconds * CLOCKS_PER_SEC)
    cdef clock_t now
    g.log = NULL
    set_rules(&g, rules)
    seed_game(&g, <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF))
    with nogil:
        while True:
            new_game(&g, target, -1)
            moves += run_playout(&g, p, 1 << 30)
            games += 1
            if (games & 63) == 0:
                now = clock()
                if now - start >= limit:
                    break
    elapsed = (now - start) / <double>CLOCKS_PER_SEC
    return {"engine": "native", "games": games, "moves": moves, "seconds": elapsed,
            "games_per_second": games / elapsed, "moves_per_second": moves / elapsed}


def unsupported(rules: object, num_players: int) -> object:
    """Why the native engine cannot play ``rules`` with ``num_players`` (None: it can): the interface every
    native engine gives ``muggins.perf.native_random_play``."""
    try:
        check_rules(rules, num_players)
    except NotImplementedError as e:
        return str(e)
    return None


def random_play_native(rules: object, num_players: int, seconds: float, seed: int = 0) -> dict:
    """Whole random games for about ``seconds`` of CPU time (``muggins bench``'s native figure)."""
    check_rules(rules, num_players)
    return random_games_native(rules, seconds, seed)


cdef list _mask_cards(int lo, int hi):
    from muggins.cards.dealing import DECK

    cdef uint64_t m = (<uint64_t><unsigned int>lo) | ((<uint64_t><unsigned int>hi) << 32)
    return [DECK[c] for c in _cards(m)]


cdef list _events(const int* buf, long n, long start, object rules):
    """The Event objects of records ``start``..``n - 1`` (the pure engine's data, field for field)."""
    from muggins.cards.cribbage.game import ShowExplanation
    from muggins.cards.cribbage.pegging import PAIR_NAMES, PAIR_POINTS
    from muggins.cards.cribbage.rules import SKUNK_NAMES
    from muggins.cards.dealing import DECK
    from muggins.core.protocol import Event

    cdef long i
    cdef const int* r
    cdef int kind, seat, k
    nplayers = rules.players
    out = []
    for i in range(start, n):
        r = buf + i * EV_WIDTH
        kind = r[0]
        seat = r[1]
        if kind == EV_DEAL:
            out.append(Event("deal", seat, {"hand": r[2], "dealer": seat, "cards_each": rules.cards_each,
                                            "crib_dealt": rules.crib_dealt}))
        elif kind == EV_DEALT or kind == EV_DISCARD:
            texts = [DECK[r[2 + k]].text for k in range(6) if r[2 + k] >= 0]
            out.append(Event("dealt" if kind == EV_DEALT else "discard", seat,
                             {"cards": texts, "count": len(texts)}, ("cards",)))
        elif kind == EV_STARTER:
            out.append(Event("starter", None, {"card": DECK[r[2]].text, "cut": r[3]}))
        elif kind == EV_SCORE:
            out.append(Event("score", seat, {"side": r[2], "points": r[3], "reason": _REASONS[r[4]]}))
        elif kind == EV_PLAY:
            data = {"card": DECK[r[2]].text, "count": r[3]}
            if r[4] >= 0:
                data["points"] = r[4]
            if r[4] > 0:
                items = []
                if r[3] == 15 or r[3] == 31:
                    items.append(["fifteen" if r[3] == 15 else "thirty-one", 2])
                if r[5]:
                    items.append([PAIR_NAMES[PAIR_POINTS.index(r[5])], r[5]])
                if r[6]:
                    items.append([f"run of {r[6]}", r[6]])
                if r[7]:
                    items.append(["last card" if r[7] == 2 else "go", 1])
                data["items"] = items
            out.append(Event("play", seat, data))
        elif kind == EV_GO:
            data = {"count": r[2]}
            if r[3]:
                data["takes"] = "last card" if r[3] == 2 else "go"
            out.append(Event("go", seat, data))
        elif kind == EV_RESET:
            out.append(Event("reset", None, {"count": r[2], "last": r[3]}))
        elif kind == EV_SHOW_START:
            d = r[2]
            order = [[(d + k) % nplayers, "hand"] for k in range(1, nplayers + 1)] + [[d, "crib"]]
            out.append(Event("show_start", None, {"order": order}))
        elif kind == EV_SHOW:
            data = {"what": "crib" if r[2] else "hand", "cards": [c.text for c in _mask_cards(r[4], r[5])],
                    "starter": DECK[r[6]].text}
            if r[3] >= 0:
                data["points"] = r[3]
            out.append(Event("show", seat, data))
        elif kind == EV_EXPLAIN:
            out.append(ShowExplanation(seat, "crib" if r[2] else "hand", tuple(_mask_cards(r[3], r[4])),
                                       DECK[r[5]], bool(r[2])))
        elif kind == EV_GAME_END:
            side = r[2]
            nsides = 2 if nplayers == 4 else nplayers
            scores = [r[3 + k] for k in range(nsides)]
            losers = []
            for o in range(nsides):
                if o != side:
                    level = rules.skunk_level(scores[o])
                    losers.append({"side": o, "score": scores[o], "result": SKUNK_NAMES[level],
                                   "game_points": rules.game_points(level)})
            result = {"winner_side": side, "losers": losers,
                      "game_points": max(int(x["game_points"]) for x in losers)}
            out.append(Event("game_end", None, {"winners": [s for s in range(nplayers) if s % nsides == side],
                                                "scores": scores, **result}))
        elif kind == EV_CLAIM:
            out.append(Event("claim", seat, {"points": r[2], "late": True} if r[3] else {"points": r[2]}))
        elif kind == EV_OVER_CLAIM:
            amount, what = r[2], _WHATS[r[4]]
            message = (f"announced {amount}, more than the {what} is worth: the claim is void and "
                       + (f"the next opponent scores {amount} as a penalty" if r[5] else "scores nothing"))
            out.append(Event("over_claim", seat, {"points": amount, "true": r[3], "what": what,
                                                  "message": message}, ("true",)))
        elif kind == EV_MISSED:
            out.append(Event("missed", seat, {"side": r[2], "points": r[3], "reason": _REASONS[r[4]]}))
        elif kind == EV_MUGGINS:
            out.append(Event("muggins", seat, {"on": r[2], "outcome": _OUTCOMES[r[3]], "points": r[4],
                                               "named": None if r[5] < 0 else r[5], "missed": r[6],
                                               "reason": _REASONS[r[7]]}))
        elif kind == EV_HIS_HEELS:
            out.append(Event("his_heels", seat, {"card": DECK[r[2]].text}))
        else:
            raise AssertionError(f"unknown event record {kind}")
    return out


# ======================================================================================= the search ====
# Single-observer IS-MCTS of the search bot (muggins.bots.search.SearchPolicy) run wholly in C: each
# iteration draws a world under the seat's constraints, walks one tree keyed by (actor, action id) with UCB1
# and availability counts, adds one node, rolls out with the mixed greedy/uniform playout to the end of the
# hand and backs up ``_score_rewards``' rewards. The constraints come once per search from the pure state's
# sampling frame (``CribbageState.sampling_frame``: the unseen cards, the slots they fill, the go floors), or
# equally from the game alone (``frame_of``, the batched environment's search opponent), so no world depends on
# anything the seat has not seen.

from libc.stdlib cimport malloc, realloc, free
from libc.math cimport sqrt, log, tanh

from muggins.core.mcts cimport Node, Tree, add_node, best_child, new_tree, now_seconds

cdef enum:
    MAX_PATH = 256
    MAX_ACTS = 16


cdef inline int rbelow(uint64_t* s, int n) noexcept nogil:
    return <int>(((splitmix_next(s) >> 32) * <uint64_t>n) >> 32)


cdef int draw_world(const Frame* f, Game* w, uint64_t* rng) noexcept nogil:
    """A world drawn into ``w`` under the frame's masks: the unseen cards shuffled, each slot (most
    constrained first) takes the first cards of the shuffle it may hold, the pack the rest in shuffled
    order. Returns how many draws were needed; a slot that no shuffle can fill takes any cards (the pure
    sampler's fallback, unreachable from a real position)."""
    cdef int order[52]
    cdef int i, j, t, s, k, c, tries, ok, npack, n = f.npool
    cdef int packed[PACK]
    cdef uint64_t taken, got
    cdef uint64_t fill[MAX_SLOTS]
    cdef int strict = 1
    tries = 0
    while True:
        tries += 1
        if tries > 64:
            strict = 0
        for i in range(n):
            order[i] = f.pool[i]
        for i in range(n - 1, 0, -1):
            j = rbelow(rng, i + 1)
            t = order[i]
            order[i] = order[j]
            order[j] = t
        taken = 0
        ok = 1
        npack = 0
        for s in range(f.nslots):
            got = 0
            k = 0
            if f.slot_kind[s] == SLOT_PACK:
                for i in range(n):
                    c = order[i]
                    if not (taken >> c) & 1:
                        packed[npack] = c
                        npack += 1
                        got |= <uint64_t>1 << c
                fill[s] = got
                taken |= got
                continue
            for i in range(n):
                if k == f.slot_size[s]:
                    break
                c = order[i]
                if (taken >> c) & 1 or (strict and (f.slot_forbid[s] >> c) & 1):
                    continue
                got |= <uint64_t>1 << c
                k += 1
            if k < f.slot_size[s]:
                ok = 0
                break
            fill[s] = got
            taken |= got
        if ok:
            break
    w[0] = f.base
    for s in range(f.nslots):
        t = f.slot_owner[s]
        if f.slot_kind[s] == SLOT_HELD:
            w.held[t] = fill[s]
        elif f.slot_kind[s] == SLOT_DISCARDS or f.slot_kind[s] == SLOT_CRIB:
            w.crib |= fill[s]
    for t in range(2):
        if f.set_kept[t]:
            w.kept[t] = f.played[t] | w.held[t]
    # the pack in shuffled order, the starter (once cut) back at its place
    j = 0
    for i in range(PACK):
        if w.starter >= 0 and i == w.cut:
            w.pack[i] = w.starter
        elif j < npack:
            w.pack[i] = packed[j]
            j += 1
    return tries


cdef int legal_list(Game* g, int seat, int* out) noexcept nogil:
    """The ids ``seat`` may use now, ascending (as ``NativeCribbage.legal_ids``), at most MAX_ACTS."""
    return own_moves(g, seat, out, 1, MAX_ACTS)


cdef inline double reward_of(Game* w, int side, const int* before, double scale, int points) noexcept nogil:
    """``_score_rewards`` for two sides: 1 or 0 once the game is over (unless playing for ``points``), else
    the squashed gain over the other side's since the root."""
    if w.phase == PH_OVER and not points:
        return 1.0 if w.winner == side else 0.0
    cdef double mine = w.scores[side] - before[side]
    cdef double other = w.scores[side ^ 1] - before[side ^ 1]
    return 0.5 + 0.5 * tanh((mine - other) / scale)


cdef int iterate(const Frame* f, Tree* t, uint64_t* rng, double c, int horizon, double greedy,
                 double scale, int points) noexcept nogil:
    """One iteration from the root (node 0); -1 when the tree cannot grow (out of memory)."""
    cdef Game w
    cdef int before[2]
    cdef int path[MAX_PATH]
    cdef int acts[MAX_ACTS]
    cdef int untried[MAX_ACTS]
    cdef int npath = 0, plies = 0, node = 0, actor, n, i, ch, best, nu, pick, hand, ended = 0
    cdef double v, best_v, r0, r1
    cdef Node* nd
    draw_world(f, &w, rng)
    seed_game(&w, splitmix_next(rng))  # the world's own chance (a cut in the tree) differs from draw to draw
    before[0] = w.scores[0]
    before[1] = w.scores[1]
    hand = w.hand_no
    while plies < horizon and w.phase != PH_OVER and npath < MAX_PATH:
        actor = to_move(&w)
        n = legal_list(&w, actor, acts)
        if n == 0:
            break
        nu = 0
        best = -1
        best_v = -1.0
        for i in range(n):
            ch = t.nodes[node].first
            while ch >= 0 and not (t.nodes[ch].actor == actor and t.nodes[ch].action == acts[i]):
                ch = t.nodes[ch].next
            if ch < 0:
                untried[nu] = acts[i]
                nu += 1
                continue
            nd = &t.nodes[ch]
            nd.avail += 1
            v = nd.reward / nd.visits + c * sqrt(log(<double>nd.avail) / nd.visits)
            if v > best_v:
                best = ch
                best_v = v
        if nu:
            pick = untried[0] if nu == 1 else untried[rbelow(rng, nu)]
            ch = add_node(t, node, actor, pick)
            if ch < 0:
                return -1
            path[npath] = ch
            npath += 1
            apply_legal(&w, actor, pick)
            plies += 1
            if w.hand_no != hand:
                ended = 1
            break
        path[npath] = best
        npath += 1
        apply_legal(&w, actor, t.nodes[best].action)
        plies += 1
        node = best
        if w.hand_no != hand:
            ended = 1
            break
    if not ended and plies < horizon and w.phase != PH_OVER:
        seed_game(&w, splitmix_next(rng))
        run_playout(&w, 2, horizon - plies, 1, greedy)
    r0 = reward_of(&w, 0, before, scale, points)
    r1 = reward_of(&w, 1, before, scale, points)
    for i in range(npath):
        nd = &t.nodes[path[i]]
        nd.visits += 1
        nd.reward += r0 if nd.actor == 0 else r1
    return 0


cdef int make_frame(Frame* f, object state, int seat, bint omniscient=False) except -1:
    """The frame of ``state`` for ``seat``: the position with the unseen cards taken out, and the slots
    and masks they are dealt back under (the pure sampler's frame, ``CribbageState.sampling_frame``).
    ``omniscient``: nothing taken out (every world is the true position, only its future random)."""
    from muggins.cards.cribbage.game import CribbageState
    from muggins.core.errors import GameOver

    if not isinstance(state, CribbageState) and hasattr(state, "to_pure"):
        state = state.to_pure()  # a native-backed state: its pure twin
    if not isinstance(state, CribbageState):
        raise TypeError(f"the native cribbage search takes a CribbageState, not {type(state).__name__}")
    check_rules(state.rules, state.num_players)
    r = state.rules
    why = [w for w, out in ((f"{state.num_players} players", state.num_players != 2), ("five-card", r.five_card),
                            ("manual claims", r.claims == "manual")) if out]
    if why:
        raise NotImplementedError("the native cribbage search plays the two-player six-card game with automatic "
                                  f"claims, not {', '.join(why)}")
    if not 0 <= seat < 2:
        raise ValueError(f"there is no seat {seat} in a two-player game")
    if state.is_over():
        raise GameOver("the game is over: there is nothing to search")
    if state.phase not in ("discard", "play", "show"):
        raise NotImplementedError(f"the native cribbage search cannot take a state in phase {state.phase!r}")
    cdef NativeCribbage n = NativeCribbage.from_state(state)
    f.base = n.g
    if omniscient:
        f.nslots = 0
        f.npool = 0
        f.set_kept[0] = 0
        f.set_kept[1] = 0
        f.set_crib = 0
        return 0
    hidden, slots = state.sampling_frame(seat)
    cdef Game* b = &f.base
    cdef int o = seat ^ 1
    cdef int i, s, kind
    cdef uint64_t forbid
    f.npool = len(hidden)
    for i in range(f.npool):
        f.pool[i] = hidden[i].index
    if len(slots) > MAX_SLOTS:
        raise NotImplementedError(f"{len(slots)} hidden places are more than the native search takes")
    kinds = {"held": SLOT_HELD, "discards": SLOT_DISCARDS, "crib": SLOT_CRIB, "pack": SLOT_PACK}
    ordered = []
    for owner, part, size, floor in slots:
        forbid = 0
        for c in hidden:
            if c.value <= floor:
                forbid |= <uint64_t>1 << <int>c.index
        ordered.append((-popcount(forbid), kinds[part] == SLOT_PACK, owner, kinds[part], size, forbid))
    ordered.sort(key=lambda x: (x[0], x[1]))  # most constrained first, the pack (the rest) last
    f.nslots = len(ordered)
    for s, (_, _, owner, kind, size, forbid) in enumerate(ordered):
        f.slot_kind[s] = kind
        f.slot_owner[s] = owner if owner >= 0 else 0
        f.slot_size[s] = size
        f.slot_forbid[s] = forbid
        if kind == SLOT_HELD:
            b.held[owner] = 0
    # what is taken out: the other seat's kept hand (its played cards stay known), the crib but for the
    # seat's own discards, the pack but for the starter
    f.played[0] = 0
    f.played[1] = 0
    for t, c in state._played:
        f.played[t] |= <uint64_t>1 << <int>c.index
    f.set_kept[seat] = 0
    f.set_kept[o] = 1 if (not (state._to_discard >> o) & 1 and not state._shown[o]) else 0
    if f.set_kept[o]:
        b.kept[o] = 0
    f.set_crib = 0 if state._crib_shown else 1
    f.crib_seen = _mask(state.discards[seat]) if not (state._to_discard >> seat) & 1 else 0
    if f.set_crib:
        b.crib = f.crib_seen
    for i in range(PACK):
        if not (b.starter >= 0 and i == b.cut):
            b.pack[i] = -1
    total = sum(size for _, _, size, _ in slots)
    if total != f.npool:
        raise NotImplementedError(f"the sampling frame places {total} cards but {f.npool} are unseen")
    return 0


cdef inline void add_slot(Frame* f, int kind, int owner, int size, uint64_t forbid) noexcept nogil:
    f.slot_kind[f.nslots] = kind
    f.slot_owner[f.nslots] = owner
    f.slot_size[f.nslots] = size
    f.slot_forbid[f.nslots] = forbid
    f.nslots += 1


cdef int frame_of(const Game* g, int seat, Frame* f) noexcept nogil:
    """The frame of ``g`` for ``seat`` built in C from the game alone, reading only what the seat's view shows
    (its own cards and discards, the cards laid and shown, whether the crib is turned up, the floors the other's
    gos set): the frame :func:`make_frame` builds from the protocol state. -1 where the native search does not
    play (not two players, five-card, manual claims, a finished game, a deal or cut the owner has yet to give)."""
    cdef Game* b = &f.base
    cdef int o = seat ^ 1, i, t, c, in_pack
    cdef uint64_t pool = 0, forbid = 0, m
    cdef bint hidden_held, hidden_discards
    if g.nplayers != 2 or g.five_card or g.manual or not 0 <= seat < 2 or g.phase == PH_OVER or g.pending:
        return -1
    f.base = g[0]
    b.log = NULL
    b.external = 0
    b.feed_cut = -1
    b.feed_deal = 0
    for i in range(g.npack):  # the pack but the starter
        if g.pack[i] >= 0 and g.pack[i] != g.starter:
            pool |= <uint64_t>1 << g.pack[i]
    in_pack = popcount(pool)
    hidden_held = g.held[o] != 0 and not (g.shown & g.kept[o])
    hidden_discards = g.discards[o] != 0 and not g.crib_shown
    if hidden_held:
        pool |= g.held[o]
    if hidden_discards:
        pool |= g.discards[o]
    f.npool = 0
    m = pool
    while m:
        f.pool[f.npool] = lowbit(m)
        f.npool += 1
        m &= m - 1
    # the slots as make_frame orders them: the held cards (the only ones a floor constrains), the discards, the pack
    f.nslots = 0
    if hidden_held:
        m = pool
        while m:
            c = lowbit(m)
            m &= m - 1
            if card_value(c) <= g.go_floor[o]:
                forbid |= <uint64_t>1 << c
        add_slot(f, SLOT_HELD, o, popcount(g.held[o]), forbid)
        b.held[o] = 0
    if hidden_discards:
        add_slot(f, SLOT_DISCARDS, o, popcount(g.discards[o]), 0)
    add_slot(f, SLOT_PACK, 0, in_pack, 0)
    for t in range(2):
        f.played[t] = g.kept[t] & ~g.held[t]
    f.set_kept[seat] = 0
    f.set_kept[o] = 1 if not (g.to_discard >> o) & 1 and not (g.shown & g.kept[o]) else 0
    if f.set_kept[o]:
        b.kept[o] = 0
    f.set_crib = 0 if g.crib_shown else 1
    f.crib_seen = 0 if (g.to_discard >> seat) & 1 else g.discards[seat]
    if f.set_crib:
        b.crib = f.crib_seen
    for i in range(PACK):
        if not (b.starter >= 0 and i == b.cut):
            b.pack[i] = -1
    return 0


cdef int source_frame(Frame* f, object source, int seat) except -1:
    """The frame of ``source`` for ``seat``: :func:`frame_of` for a :class:`NativeCribbage` (from its game
    alone), :func:`make_frame` for a protocol state."""
    from muggins.core.errors import GameOver

    cdef NativeCribbage n
    if not isinstance(source, NativeCribbage):
        return make_frame(f, source, seat)
    n = source
    if not 0 <= seat < n.g.nplayers:
        raise ValueError(f"there is no seat {seat} in a {n.g.nplayers}-player game")
    if n.g.phase == PH_OVER:
        raise GameOver("the game is over: there is nothing to search")
    if frame_of(&n.g, seat, f) < 0:
        raise NotImplementedError("the native cribbage search plays the two-player six-card game with automatic "
                                  "claims, its deal and cut made")
    return 0


cdef dict frame_dict(const Frame* f):
    cdef const Game* b = &f.base
    return {"hands": [_cards(b.held[0]), _cards(b.held[1])], "kept": [_cards(b.kept[0]), _cards(b.kept[1])],
            "crib": _cards(b.crib), "pack": [b.pack[i] for i in range(PACK)], "starter": b.starter, "cut": b.cut,
            "scores": [b.scores[0], b.scores[1]], "phase": _PHASES[b.phase], "turn": b.turn, "count": b.count,
            "dealer": b.dealer, "hand": b.hand_no, "to_discard": b.to_discard, "gone": b.gone, "last": b.last,
            "ranks": [b.ranks[i] for i in range(b.nranks)], "show": b.show_i, "target": b.target,
            "pool": [f.pool[i] for i in range(f.npool)],
            "slots": [(f.slot_kind[i], f.slot_owner[i], f.slot_size[i], f.slot_forbid[i]) for i in range(f.nslots)],
            "played": [f.played[0], f.played[1]], "set_kept": [f.set_kept[0], f.set_kept[1]],
            "set_crib": f.set_crib, "crib_seen": f.crib_seen}


def seat_frame(source: object, seat: int) -> dict:
    """What the search of ``seat`` knows in ``source``: the frame a protocol state (``CribbageState`` or
    native-backed) gives from the seat's view (``sampling_frame``), or the one a :class:`NativeCribbage` gives
    in C from its game alone (:func:`frame_of`, as the batched environment's search opponent builds it). A dict
    of card indices: the position with the unseen cards taken out, ``pool`` (the unseen cards), ``slots``
    ((kind, owner, size, forbidden cards mask) in filling order), the cards each seat played this hand, and
    which kept hands and crib a world rebuilds."""
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    if f == NULL:
        raise MemoryError()
    try:
        source_frame(f, source, seat)
        return frame_dict(f)
    finally:
        free(f)


cdef dict world_dict(Game* w):
    return {"hands": [_cards(w.held[0]), _cards(w.held[1])], "kept": [_cards(w.kept[0]), _cards(w.kept[1])],
            "crib": _cards(w.crib), "pack": [w.pack[i] for i in range(PACK)], "starter": w.starter,
            "scores": [w.scores[0], w.scores[1]], "phase": _PHASES[w.phase], "turn": w.turn, "count": w.count}


def sample_world(state: object, seat: int, seed: int = 0) -> dict:
    """One world the search of ``seat`` could draw in ``state`` (a protocol state or a :class:`NativeCribbage`,
    as :func:`seat_frame` takes them; card indices): ``hands`` held now,
    ``kept``, ``crib``, ``pack`` (the undealt cards in order, the starter at its cut), ``starter``. It depends
    only on what ``seat`` has seen and ``seed``."""
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    cdef Game w
    cdef uint64_t rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    if f == NULL:
        raise MemoryError()
    try:
        source_frame(f, state, seat)
        draw_world(f, &w, &rng)
        return world_dict(&w)
    finally:
        free(f)


cdef long search_loop(const Frame* f, Tree* t, uint64_t* rng, long budget, double limit, double c, int hz,
                      double greedy, double scale, int points, int* failed) noexcept nogil:
    """The search's iterations from the root (node 0 of ``t``): at most ``budget``, and ``limit`` seconds at
    most (checked every few iterations; 0: no clock, the budget alone). Returns the iterations done;
    ``failed`` set when the tree outgrew memory."""
    cdef long done = 0
    cdef double deadline = now_seconds() + limit if limit > 0 else 0.0
    while done < budget:
        if iterate(f, t, rng, c, hz, greedy, scale, points) < 0:
            failed[0] = 1
            break
        done += 1
        if limit > 0 and (done & 3) == 0 and now_seconds() >= deadline:
            break
    return done


cdef int search_move(Game* g, int seat, long iterations, double c, int horizon, double greedy,
                     double scale) noexcept nogil:
    """The search bot's move (an internal id) for ``seat`` in ``g``: :func:`search`'s SO-ISMCTS at
    ``iterations`` iterations and no clock, every world drawn from :func:`frame_of` (what the seat knows), its
    generator seeded from the game's. -1 when it cannot run (rules it does not play, no memory, the root
    waiting for another seat)."""
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    cdef Tree t
    cdef uint64_t rng = splitmix_next(&g.rng)
    cdef int failed = 0, best, move = -1
    if f == NULL:
        return -1
    if frame_of(g, seat, f) == 0 and new_tree(&t) == 0:
        search_loop(f, &t, &rng, iterations, 0.0, c, horizon, greedy, scale, 0, &failed)
        best = best_child(&t, seat)
        if best >= 0 and not failed:
            move = t.nodes[best].action
        free(t.nodes)
    free(f)
    return move


def search(state: object, seat: int, iterations: int, time_limit: float, exploration: float = 0.7,
           horizon: int = 120, rollout_greedy: float = 0.8, seed: int = 0, omniscient: bool = False,
           reward_scale: float = 0.0, bint play_for_points=False) -> dict:
    """SO-ISMCTS for ``seat`` in ``state`` (a protocol state, or a :class:`NativeCribbage` whose frame is built
    from its game alone: :func:`seat_frame`), as ``SearchPolicy`` runs it, in C:
    at most ``iterations`` iterations or ``time_limit`` seconds (checked every few iterations), UCB1 with
    ``exploration``, ``horizon`` plies per iteration (tree and rollout), rollouts greedy with probability
    ``rollout_greedy`` and stopped at the hand's end. Deterministic for a ``seed`` when the iterations run
    out first. Returns {"action": the id of the most visited move of ``seat``, "iterations": done,
    "children": [(id, visits, reward sum), ...] of the root's moves of ``seat``}. ``omniscient``: the
    ceiling's search, every world the true position (hands, crib and pack known; only chance to come random).
    ``reward_scale``: the points difference the squashed reward turns on (0: a tenth of the target, at
    least 5); ``play_for_points``: a finished game is rewarded the same way (its points, not 1 or 0 for the
    win)."""
    if iterations < 1 or not time_limit > 0:
        raise ValueError("a search needs at least one iteration and a positive time limit")
    if horizon < 1:
        raise ValueError(f"the horizon is at least one move, not {horizon}")
    if not 0.0 <= rollout_greedy <= 1.0:
        raise ValueError(f"rollout_greedy is a probability (0 to 1), not {rollout_greedy!r}")
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    cdef Tree t
    cdef uint64_t rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef long budget = min(iterations, 1 << 62)
    cdef long done = 0
    cdef double c = exploration, greedy = rollout_greedy, limit = time_limit
    cdef int hz = min(horizon, 1 << 30), failed = 0, ch, best, s = seat, points = play_for_points
    cdef double scale, scale_arg = reward_scale
    cdef int legal[MAX_ACTS]
    cdef int nlegal
    if f == NULL:
        raise MemoryError()
    t.nodes = NULL
    try:
        if omniscient:
            make_frame(f, state, seat, True)
        else:
            source_frame(f, state, seat)
        scale = scale_arg if scale_arg > 0 else max(5.0, f.base.target / 10.0)
        if new_tree(&t) < 0:
            raise MemoryError()
        with nogil:
            done = search_loop(f, &t, &rng, budget, limit, c, hz, greedy, scale, points, &failed)
        if failed:
            raise MemoryError("the search tree outgrew memory")
        children = []
        ch = t.nodes[0].first
        while ch >= 0:
            if t.nodes[ch].actor == s:
                children.append((t.nodes[ch].action, t.nodes[ch].visits, t.nodes[ch].reward))
            ch = t.nodes[ch].next
        best = best_child(&t, s)
        if best >= 0:
            action = t.nodes[best].action
        else:  # the root waits for another seat first (a simultaneous discard): any move of the seat's
            nlegal = legal_list(&f.base, s, legal)
            action = legal[rbelow(&rng, nlegal)] if nlegal else -1
        return {"action": action, "iterations": done, "children": children}
    finally:
        free(t.nodes)
        free(f)

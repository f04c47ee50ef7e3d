# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Card Muggins in C data, for playouts, throughput and the search (RULES.md §4; the pure engine in state.py is
the reference and the differential tests hold this one to it move by move, events included).

A game is one C struct: cards are 0..51 in pack order ((rank - 1) x 4 + suit, suits C D H S), each hand a
64-bit mask, the stock a fixed array in draw order, the pile a fixed array. Every preset and option is played:
two to four players, any cap, deal, refill and go-draw rule, the pass options, the win check, and automatic
scoring or the muggins rule with all its options (the window of ``core/protocol.py``: a play opens it, the
next move closes it - only a play with ``window=until_next_play`` - a call settles it, a late claim may follow).

Moves are the integer ids of docs/actions.md under the rules in force (a play with each claim code, go, the
muggins call and the late claim); inside, a play is its card 0-51 and a go is 52. Chance (the cut for the deal,
every deal) comes from a splitmix64 generator of the game's own, or from deals fed in with
:meth:`NativeCardMuggins.feed_deal` to follow another engine's game.

The event log: each event the pure engine would log is appended as a record of eight ints (card lists follow
in continuation records of six cards), only by the game that owns the log (a copy of the struct made by a
playout or a search never writes to it); :meth:`NativeCardMuggins.events` builds the ``Event`` objects.

The search (:func:`search`) is the search bot's SO-ISMCTS in C: each world is drawn under the seat's own
knowledge only (its view and the events as it sees them: the other hands' sizes, the values a go rules out),
as ``sample_hidden`` draws them.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.math cimport exp, log, sqrt, tanh
from libc.time cimport clock, clock_t, CLOCKS_PER_SEC

from muggins.core.bits cimport lowbit, popcount
from muggins.core.mcts cimport Node, Tree, add_node, best_child, now_seconds
from muggins.core.owner cimport apply_slowly, owner_of, window_actions
from muggins.core.idlog cimport IdLog, idlog_copy, idlog_free, idlog_init, idlog_list, idlog_push
from muggins.core.splitmix cimport splitmix_next
from muggins.core.pyrandom cimport (DRAW_DEAL, DRAW_WIDTH, MT, DrawLog, draw_copy, draw_push, draw_take,
                                    mt_cut_for_deal, mt_load, mt_seed, mt_shuffle, mt_state)

from muggins.core.errors import ClaimError, GameOver, IllegalAction, NotYourTurn, UnknownAction, shown
from muggins.core.protocol import check_seat

__all__ = ["NativeCardMuggins", "SEARCH_OPTIONS", "check_rules", "from_state", "random_games_native",
           "random_play_native", "sample_world", "search", "seat_frame", "unsupported"]

#: the search options beyond the common ones (iterations, time, exploration, horizon, rollout_greedy, scale,
#: points) that this engine's search takes: worlds weighed by the others' past plays (``infer``, ``infer_heavy``)
#: and the others moving in the tree as in the rollouts (``opponent_model``)
SEARCH_OPTIONS = frozenset({"infer", "infer_heavy", "opponent_model"})

_REASONS = ("play", "last", "mugged", "false call", "muggins", "over-claim penalty")
_WHATS = ("play", "last card")
_OUTCOMES = ("steal", "forfeit", "steal_and_deduct", "false_call")
_GO_DRAWS = ("one", "none", "only_if_below_5")
_DRAW_WHY = ("refill", "go")


cdef inline int card_value(int c) noexcept nogil:
    cdef int r = (c >> 2) + 1
    return 10 if r > 10 else r


cdef inline uint64_t low_cards(int v) noexcept nogil:
    """The cards worth at most ``v``: ranks 1..v sit at indices 0..4v - 1 (every card from 10 up)."""
    if v >= 10:
        return (<uint64_t>1 << 52) - 1
    if v <= 0:
        return 0
    return (<uint64_t>1 << (4 * v)) - 1


cdef inline uint64_t fitting(Game* g, int seat) noexcept nogil:
    return g.held[seat] & low_cards(g.cap - g.total)


cdef inline int below(uint64_t* rng, int n) noexcept nogil:
    """A number 0..n-1 (multiply-shift on 32 random bits)."""
    return <int>(((splitmix_next(rng) >> 32) * <uint64_t>n) >> 32)


cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    while k > 0:
        m &= m - 1
        k -= 1
    return lowbit(m)


cdef inline int stock_left(Game* g) noexcept nogil:
    return g.nstock - g.sp


cdef inline int holders(Game* g) noexcept nogil:
    """A bit per seat holding cards."""
    cdef int s, m = 0
    for s in range(g.n):
        if g.held[s]:
            m |= 1 << s
    return m


# --------------------------------------------------------------------------------------- the log ----

cdef inline bint logging(Game* g) noexcept nogil:
    return g.log != NULL and g.log.owner == <void*>g


cdef void ev(Game* g, int kind, int seat, int a, int b, int c, int d, int e, int f) noexcept nogil:
    cdef EvLog* L = g.log
    cdef int* buf
    cdef long cap
    if L == NULL or L.owner != <void*>g:
        return
    if L.n + EV_WIDTH > L.cap:
        cap = 64 * EV_WIDTH if L.cap == 0 else 2 * L.cap
        buf = <int*>realloc(L.buf, cap * sizeof(int))
        if buf == NULL:
            g.log = NULL
            return
        L.buf = buf
        L.cap = cap
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


cdef void ev_list(Game* g, const int* cards, int k) noexcept nogil:
    """Continuation records holding ``k`` cards in order."""
    cdef int i, j
    cdef int six[6]
    i = 0
    while i < k:
        for j in range(6):
            six[j] = cards[i + j] if i + j < k else -1
        ev(g, EV_CONT, -1, six[0], six[1], six[2], six[3], six[4], six[5])
        i += 6


cdef inline void ev_scores(Game* g, int kind, int a) noexcept nogil:
    ev(g, kind, -1, a, g.scores[0], g.scores[1], g.scores[2], g.scores[3], 0)


# ----------------------------------------------------------------------------- scoring, the window ----

cdef void finish(Game* g, int mask) noexcept nogil:
    if g.over:
        return
    g.over = 1
    g.winners = mask
    end_window(g)
    ev_scores(g, EV_GAME_END, mask)


cdef void award(Game* g, int side, int points, int actor, int reason) noexcept nogil:
    if points == 0:
        return
    g.scores[side] += points
    if logging(g):
        ev(g, EV_SCORE, actor, side, points, reason, 0, 0, 0)
    if points > 0 and not g.end_of_round and g.scores[side] >= g.target:
        finish(g, 1 << side)


cdef void end_window(Game* g) noexcept nogil:
    if g.w_open:
        g.w_open = 0
        if g.w_missed > 0 and logging(g):
            ev(g, EV_MISSED, g.w_scorer, g.w_scorer, g.w_missed, g.w_reason, 0, 0, 0)


cdef void over_claim(Game* g, int seat, int amount, int true_points, int what) noexcept nogil:
    ev(g, EV_OVER_CLAIM, seat, amount, true_points, what, g.over_penalty, 0, 0)
    if g.over_penalty:
        award(g, (seat + 1) % g.n, amount, (seat + 1) % g.n, R_PENALTY)


cdef void open_window(Game* g, int seat, int missed, int claim, int reason, int what, int late_limit,
                      bint extend) noexcept nogil:
    cdef int may, late
    if g.over:
        if missed and logging(g):
            ev(g, EV_MISSED, seat, seat, missed, reason, 0, 0, 0)
        return
    if late_limit >= 0:
        may = 1
        late = late_limit
    elif claim == CLAIM_NONE and g.lenient:
        may = 1
        late = missed
    else:
        may = 0
        late = 0
    if g.w_open:
        if extend and g.w_scorer == seat:
            g.w_missed += missed
            g.w_reason = reason
            g.w_what = what
            if may:
                g.w_may = 1
                g.w_late += late
            return
        end_window(g)
    g.w_open = 1
    g.w_scorer = seat
    g.w_missed = missed
    g.w_claimed = claim
    g.w_reason = reason
    g.w_what = what
    g.w_may = may
    g.w_late = late


cdef void score_step(Game* g, int seat, int points, int claim, int reason, int what, bint muggable,
                     int late_limit, bint extend) noexcept nogil:
    """``GameState._score_step``: award at once (automatic scoring, a step nobody may mug), else settle the
    claim and open the window on what was missed."""
    cdef int awarded, missed
    if not g.manual or not muggable:
        if points:
            award(g, seat, points, seat, reason)
        return
    if claim == CLAIM_NONE:
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
        if awarded and not g.over:
            award(g, seat, awarded, seat, reason)
    open_window(g, seat, missed, claim, reason, what, late_limit, extend)


cdef void call_muggins(Game* g, int seat, int amount) noexcept nogil:
    """A call by ``seat`` naming ``amount`` (-1: all that was missed); the window is open and his opponent's."""
    cdef int missed = g.w_missed, scorer = g.w_scorer, reason = g.w_reason
    cdef int outcome, gain = 0, loss = 0, penalty = 0, to_scorer = 0
    if missed <= 0 or amount == 0:
        outcome = O_FALSE_CALL
        if g.false_call == 1:
            penalty = g.false_points
        elif g.false_call == 2:
            to_scorer = amount if amount > 0 else g.false_points
            to_scorer = min(to_scorer, g.false_cap_play if reason == R_PLAY else g.false_cap_step)
    else:
        gain = missed if amount < 0 else (amount if amount < missed else missed)
        outcome = g.mug_rule
        if outcome == O_FORFEIT:
            gain = 0
        elif outcome == O_STEAL_AND_DEDUCT:
            loss = gain
    g.w_open = 0
    ev(g, EV_MUGGINS, seat, scorer, outcome, gain, amount, missed, reason)
    if loss:
        award(g, scorer, -loss, scorer, R_MUGGED)
    if penalty:
        award(g, seat, -penalty, seat, R_FALSE_CALL)
    if to_scorer and not g.over:
        award(g, scorer, to_scorer, scorer, R_FALSE_CALL)
    if gain and not g.over:
        award(g, seat, gain, seat, R_MUGGINS)
    if (outcome == O_STEAL or outcome == O_STEAL_AND_DEDUCT) and missed > gain:
        ev(g, EV_MISSED, scorer, scorer, missed - gain, reason, 0, 0, 0)


cdef void late_claim(Game* g, int seat, int amount) noexcept nogil:
    cdef int may = 0
    if g.w_may:
        may = g.w_missed if g.w_missed < g.w_late else g.w_late
    g.w_may = 0
    g.w_late = 0
    g.w_claimed = amount
    ev(g, EV_CLAIM, seat, amount, 1, 0, 0, 0, 0)
    if amount <= may:
        g.w_missed -= amount
        award(g, g.w_scorer, amount, seat, g.w_reason)
    else:
        over_claim(g, seat, amount, may, g.w_what)


# ------------------------------------------------------------------------------------ the rounds ----

cdef void deal(Game* g) noexcept nogil:
    """One card at a time from the dealer's left, dealer last; the rest is the stock (or the fed deal)."""
    cdef int deck[52]
    cdef int hand[4][26]
    cdef int cnt[4]
    cdef int i, j, t, s, each = g.hand_size, n = g.n
    if g.external and not g.feed:
        g.pending = 1  # the owner draws the deal (NativeCardMuggins.follow_chance) and deals it
        return
    if g.feed:
        g.feed = 0
        for i in range(52):
            deck[i] = g.feed_cards[i]
        for s in range(n):
            cnt[s] = each
            for j in range(each):
                hand[s][j] = deck[s * each + j]
    else:
        for i in range(52):
            deck[i] = i
        for i in range(51, 0, -1):
            j = below(&g.rng, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for s in range(n):
            cnt[s] = 0
        for i in range(n * each):
            s = (g.dealer + 1 + i) % n
            hand[s][cnt[s]] = deck[i]
            cnt[s] += 1
    for s in range(4):
        g.held[s] = 0
    g.nstamp = 0
    for s in range(n):
        for j in range(each):
            g.held[s] |= <uint64_t>1 << hand[s][j]
            g.stamp[hand[s][j]] = g.nstamp
            g.nstamp += 1
    g.nstock = 52 - n * each
    g.sp = 0
    for i in range(g.nstock):
        g.stock[i] = deck[n * each + i]
    if logging(g):
        ev(g, EV_ROUND_START, -1, g.round_no, g.dealer, (g.dealer + 1) % n, g.nstock, 0, 0)
        for s in range(n):
            ev(g, EV_DEALT, s, each, 0, 0, 0, 0, 0)
            ev_list(g, hand[s], each)


cdef void start_round(Game* g) noexcept nogil:
    g.round_no += 1
    g.npile = 0
    g.closed = 0
    g.total = 0
    g.passed = 0
    g.last_player = -1
    g.last_passer = -1
    g.turn = (g.dealer + 1) % g.n
    deal(g)


cdef int next_turn(Game* g, int after) noexcept nogil:
    cdef int k, s
    for k in range(1, g.n + 1):
        s = (after + k) % g.n
        if g.held[s] and not (g.final and (g.passed >> s) & 1):
            return s
    return -1


cdef void end_round(Game* g) noexcept nogil:
    cdef int s, top, leaders
    ev_scores(g, EV_ROUND_END, g.round_no)
    if g.end_of_round:
        top = g.scores[0]
        for s in range(1, g.n):
            if g.scores[s] > top:
                top = g.scores[s]
        if top >= g.target:
            leaders = 0
            for s in range(g.n):
                if g.scores[s] == top:
                    leaders |= 1 << s
            if popcount(leaders) == 1:
                finish(g, leaders)
                return
            ev(g, EV_TIE_BREAK, -1, leaders, 0, 0, 0, 0, 0)
    g.dealer = (g.dealer + 1) % g.n
    start_round(g)


cdef void close_pile(Game* g, int after) noexcept nogil:
    cdef int leader, k
    if logging(g):
        ev(g, EV_PILE_END, g.last_player, g.total, g.npile, 0, 0, 0, 0)
        ev_list(g, g.pile, g.npile)
    for k in range(g.npile):
        g.closed |= <uint64_t>1 << g.pile[k]
    g.npile = 0
    g.total = 0
    g.passed = 0
    g.last_player = -1
    g.last_passer = -1
    leader = next_turn(g, after)
    if leader < 0:
        end_round(g)
    else:
        g.turn = leader
        ev(g, EV_PILE_START, leader, 0, 0, 0, 0, 0, 0)


cdef inline void draw(Game* g, int seat, int why) noexcept nogil:
    cdef int c = g.stock[g.sp]
    g.sp += 1
    g.held[seat] |= <uint64_t>1 << c
    g.stamp[c] = g.nstamp
    g.nstamp += 1
    if logging(g):
        ev(g, EV_DRAW, seat, c, why, 0, 0, 0, 0)


cdef inline int play_points(Game* g, int c) noexcept nogil:
    """The points of laying ``c`` now, "last" aside."""
    cdef int total = g.total + card_value(c)
    if total == g.cap:
        return g.cap_bonus
    if total % 5 == 0 and (g.npile > 0 or g.lead_scores):
        return total
    return 0


cdef int play_closes(Game* g, int seat, int c) noexcept nogil:
    """Whether laying ``c`` now closes the pile (``_play_outcome``)."""
    cdef int stays, others, need, passed
    if g.total + card_value(c) == g.cap:
        return 1
    stays = popcount(g.held[seat]) > 1 or (g.draw_after and stock_left(g) > 0)
    if stays and not g.final and not g.close_after:
        return 0
    others = holders(g) & ~(1 << seat)
    if not others and not stays:
        return 1
    if not g.final and not g.close_after:
        return 0
    if g.close_after and others:
        need = others
    else:
        need = (others | (1 << seat)) if stays else others
    passed = g.passed if g.final else 0
    return (need & ~passed) == 0


cdef int true_points(Game* g, int seat, int a) noexcept nogil:
    """What a perfect player announces with move ``a`` (``_points_of``): the play's points, with "last" when
    it is muggable and known at play time; 0 for a go."""
    cdef int pts, last = 0
    if a == GO:
        return 0
    pts = play_points(g, a)
    if g.mug_last:
        if g.total + card_value(a) == g.cap:
            last = g.last_points if g.plus_last else 0
        elif play_closes(g, seat, a):
            last = g.last_points
    return pts + last


cdef void do_play(Game* g, int seat, int c) noexcept nogil:
    cdef int v = card_value(c)
    cdef int pts = play_points(g, c)
    cdef int closes = play_closes(g, seat, c)
    cdef int last = 0, passer, by_pass
    cdef bint mug_last = g.manual and g.mug_last
    if closes and (g.total + v != g.cap or g.plus_last):
        last = g.last_points
    g.held[seat] &= ~(<uint64_t>1 << c)
    g.pile[g.npile] = c
    g.npile += 1
    g.total += v
    if logging(g):
        ev(g, EV_PLAY, seat, c, g.total, 0, 0, 0, 0)
    score_step(g, seat, pts + last if mug_last else pts, g.claim, R_PLAY, W_PLAY, 1, -1, 0)
    if g.over:
        return
    g.last_player = seat
    if not g.final:
        g.passed = 0
    if g.draw_after and stock_left(g) > 0 and popcount(g.held[seat]) < g.hand_size:
        draw(g, seat, 0)
    if closes:
        if last and not mug_last:
            award(g, seat, last, seat, R_LAST)
            if g.over:
                return
        passer = g.last_passer
        by_pass = g.lead_after_passer and passer >= 0 and g.total != g.cap
        close_pile(g, passer if by_pass else seat)
    else:
        g.turn = next_turn(g, seat)


cdef int pile_closes(Game* g) noexcept nogil:
    cdef int lp = g.last_player
    cdef int active = holders(g)
    if g.close_after and lp >= 0 and g.held[lp] and popcount(active) > 1:
        active &= ~(1 << lp)
    return (active & ~g.passed) == 0


cdef void do_go(Game* g, int seat) noexcept nogil:
    cdef int lp
    if logging(g):
        ev(g, EV_GO, seat, g.total, 0, 0, 0, 0, 0)
    g.passed |= 1 << seat
    g.last_passer = seat
    if stock_left(g) > 0 and (g.go_draw == GD_ONE or (g.go_draw == GD_BELOW
                                                       and popcount(g.held[seat]) < g.hand_size)):
        draw(g, seat, 1)
    if pile_closes(g):
        lp = g.last_player
        if g.last_points:
            score_step(g, lp, g.last_points, CLAIM_NONE, R_LAST, W_LAST, g.mug_last, g.last_points, 1)
            if g.over:
                return
        close_pile(g, seat if g.lead_after_passer else lp)
    else:
        g.turn = next_turn(g, seat)


cdef void apply_move(Game* g, int seat, int a) noexcept nogil:
    """A legal move ``a`` (a card, or GO) of ``seat``, the one to play, with claim ``g.claim``: the window
    closes first (for a go only with window=until_next_action), as ``GameState.apply`` closes it."""
    if g.w_open and (a != GO or not g.until_play):
        g.w_open = 0
        if g.w_missed > 0 and logging(g):
            ev(g, EV_MISSED, g.w_scorer, g.w_scorer, g.w_missed, g.w_reason, 0, 0, 0)
    if a == GO:
        do_go(g, seat)
    else:
        do_play(g, seat, a)


cdef void cut_for_deal(Game* g) noexcept nogil:
    """Each seat draws a card; the highest rank (lowest with low_card) deals; tied seats draw again."""
    cdef int seats = (1 << g.n) - 1, s, k, i, j, t, best, tied, r
    cdef int deck[52]
    cdef int got[4]
    while True:
        k = popcount(seats)
        for i in range(52):
            deck[i] = i
        for i in range(k):  # a partial shuffle: k distinct cards
            j = i + below(&g.rng, 52 - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        best = -1
        i = 0
        for s in range(g.n):
            if (seats >> s) & 1:
                got[i] = deck[i]
                r = deck[i] >> 2
                if best < 0 or (r < best if g.low_first else r > best):
                    best = r
                i += 1
        ev(g, EV_CUT, -1, seats, got[0] if k > 0 else -1, got[1] if k > 1 else -1, got[2] if k > 2 else -1,
           got[3] if k > 3 else -1, 0)
        tied = 0
        i = 0
        for s in range(g.n):
            if (seats >> s) & 1:
                if (got[i] >> 2) == best:
                    tied |= 1 << s
                i += 1
        if popcount(tied) == 1:
            g.dealer = lowbit(tied)
            return
        seats = tied


cdef void new_game(Game* g) noexcept nogil:
    cdef int s
    for s in range(4):
        g.scores[s] = 0
        g.held[s] = 0
    g.over = 0
    g.winners = 0
    g.w_open = 0
    g.claim = CLAIM_NONE
    g.round_no = 0
    cut_for_deal(g)
    start_round(g)


# ----------------------------------------------------------------------------------- the policies ----

cdef inline int legal_moves(Game* g, int seat, int* out) noexcept nogil:
    """The moves of ``seat`` (cards ascending, or GO alone); 0 when it is not his turn or the game is over."""
    cdef uint64_t fit
    cdef int k = 0
    if g.over or seat != g.turn:
        return 0
    fit = fitting(g, seat)
    if not fit:
        out[0] = GO
        return 1
    while fit:
        out[k] = lowbit(fit)
        k += 1
        fit &= fit - 1
    return k


cdef int choose(Game* g, int seat, int policy, double greedy) noexcept nogil:
    """A move of ``seat`` (to play): uniform (POLICY_RANDOM), the most points with ties at random
    (POLICY_GREEDY), or greedy with probability ``greedy`` else uniform (POLICY_MIXED)."""
    cdef uint64_t fit = fitting(g, seat)
    cdef int k, best, p, c, ties
    cdef uint64_t m
    if not fit:
        return GO
    k = popcount(fit)
    if k == 1:
        return lowbit(fit)
    if policy == POLICY_RANDOM or (policy == POLICY_MIXED and
                                   <double>(splitmix_next(&g.rng) >> 11) * (1.0 / 9007199254740992.0) >= greedy):
        return nth_bit(fit, below(&g.rng, k))
    best = -1
    ties = 0
    m = fit
    c = -1
    while m:
        k = lowbit(m)
        m &= m - 1
        p = true_points(g, seat, k)
        if p > best:
            best = p
            c = k
            ties = 1
        elif p == best:
            ties += 1
            if below(&g.rng, ties) == 0:  # reservoir: each of the tied moves alike
                c = k
    return c


cdef long run_playout(Game* g, int policy, long max_moves, int until_round_end, double greedy) noexcept nogil:
    """Play on from here: ``policy`` for every seat, each play announcing its true points, nobody calling
    (as the cribbage and dominoes playouts). Stops when the game is over, after ``max_moves`` moves, or (with
    ``until_round_end``) once the next round is dealt. Returns the moves made."""
    cdef long moves = 0
    cdef int a, seat, rnd = g.round_no
    while not g.over and moves < max_moves:
        if until_round_end and g.round_no != rnd:
            break
        seat = g.turn
        a = choose(g, seat, policy, greedy)
        g.claim = CLAIM_NONE
        if g.manual and a != GO and not g.quiet:
            g.claim = true_points(g, seat, a)
            if g.claim == 0:
                g.claim = CLAIM_NONE
        apply_move(g, seat, a)
        g.claim = CLAIM_NONE
        moves += 1
    return moves


# ------------------------------------------------------------------------------------ Python face ----

def check_rules(rules: object, num_players: int) -> None:
    """Raise NotImplementedError naming what the native engine does not play: nothing a card Muggins preset or
    option asks for (two to four players, any deal that fits in one pack)."""
    if not 2 <= num_players <= 4 or rules.hand_size * num_players > 52:
        raise NotImplementedError(f"native card Muggins plays two to four hands of one pack, not {num_players} "
                                  f"players with {rules.hand_size} cards each (preset {rules.preset!r})")


cdef inline void plain(Game* g) noexcept nogil:
    """No claim pending, plays announcing, chance its own, no window open."""
    g.claim = CLAIM_NONE
    g.quiet = 0
    g.feed = 0
    g.external = 0
    g.pending = 0
    g.w_open = 0


cdef int set_rules(Game* g, object rules, int n) except -1:
    check_rules(rules, n)
    g.log = NULL
    g.n = n
    g.cap = rules.cap
    g.cap_bonus = rules.cap_bonus
    g.plus_last = bool(rules.thirty_one_plus_last)
    g.last_points = rules.last_points
    g.hand_size = rules.hand_size
    g.draw_after = bool(rules.draw_after_play)
    g.go_draw = _GO_DRAWS.index(rules.go_draw)
    g.final = bool(rules.go_is_final_for_pile)
    g.close_after = bool(rules.close_after_others_pass)
    g.lead_scores = bool(rules.lead_scores)
    g.lead_after_passer = bool(rules.lead_after_last_passer)
    g.mug_last = bool(rules.mug_last)
    g.until_play = rules.window == "until_next_play"
    g.target = rules.target
    g.end_of_round = rules.win_check == "end_of_round"
    g.low_first = rules.first_dealer == "low_card"
    g.manual = rules.claims == "manual"
    g.lenient = rules.claim_timing == "lenient"
    g.mug_rule = _OUTCOMES.index(rules.muggins)
    g.over_penalty = rules.over_claim == "opponent_scores"
    g.false_call = ("none", "deduct", "award").index(rules.false_call_penalty)
    g.false_points = rules.false_call_points
    g.false_cap_play = rules.max_points_of("play")
    g.false_cap_step = rules.max_step_points
    plain(g)
    return 0


cdef int _policy(object policy) except -1:
    if policy in (0, "random"):
        return POLICY_RANDOM
    if policy in (1, "greedy"):
        return POLICY_GREEDY
    raise ValueError(f"policy is 0 (random) or 1 (greedy), not {policy!r}")


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


cdef int in_hand_order(Game* g, int seat, int* cards) noexcept nogil:
    """The cards ``seat`` may lay now into ``cards`` in the order of his hand (as the pure engine lists them: as
    dealt, then drawn): their number, -1 for a go, 0 when it is not his turn."""
    cdef uint64_t fit
    cdef int k = 0, j, c
    if g.over or not 0 <= seat < g.n or seat != g.turn:
        return 0
    fit = fitting(g, seat)
    if not fit:
        return -1
    while fit:
        c = lowbit(fit)
        fit &= fit - 1
        j = k
        while j > 0 and g.stamp[cards[j - 1]] > g.stamp[c]:
            cards[j] = cards[j - 1]
            j -= 1
        cards[j] = c
        k += 1
    return k


#: every set of seats, by its bit mask (who waits, who may act: no set is built per call)
cdef tuple _SEATS = tuple(frozenset(s for s in range(4) if (m >> s) & 1) for m in range(16))


cdef class NativeCardMuggins:
    """One card Muggins game in C data; integer ids in and out (see the module docstring)."""

    cdef int layout(self, object rules, int n) except -1:
        set_rules(&self.g, rules, n)
        self.rules = rules
        self.bound = rules.max_step_points
        self.width = self.bound + 2 if self.g.manual else 1
        self.id_go = 52 * self.width
        self.id_muggins = self.id_go + 1
        self.id_claim = self.id_muggins + self.bound + 2
        self.id_size = self.id_claim + self.bound + 1 if self.g.manual else self.id_go + 1
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

    def __dealloc__(self) -> None:
        free(self.evlog.buf)
        free(self.drawn.buf)
        idlog_free(&self.hist)

    cdef int record(self, int seat, int i) except -1:
        if self.keep_hist:
            idlog_push(&self.hist, seat, i)
        return 0

    cdef int resume(self) except -1:
        """Deal the round that waits for its deal: from the owner's generator while the engine holds it
        (take_rng), else from the owner's chance, or (none) the generator."""
        cdef Game* g = &self.g
        if self.own_rng:
            self.mt_deal()
        elif self.deal_fn is None and not self.owner_deals:
            g.external = 0
        else:
            got = owner_of(self.owner)._draw_deal(g.dealer) if self.owner_deals else self.deal_fn(g.dealer)
            if got is None:  # the owner handed its generator over (take_rng): draw it here
                if not self.own_rng:
                    raise RuntimeError("the deal function gave no deal and no generator")
                self.mt_deal()
            else:
                hands, stock = got
                self.feed_deal(hands, stock)
        g.pending = 0
        deal(g)
        return 0

    cdef int mt_deal(self) except -1:
        """The next deal drawn as ``CardMugginsState._deal`` draws it from the held generator (``shuffle`` of
        the pack), fed to the game and recorded."""
        cdef Game* g = &self.g
        cdef int* deck = draw_push(&self.drawn, DRAW_DEAL, g.dealer, 52)
        cdef int n = g.n, each = g.hand_size, s, j, k = 0
        for j in range(52):
            deck[j] = j
        mt_shuffle(&self.mt, deck, 52)
        for s in range(n):  # seat s gets every n-th card from its place after the dealer
            for j in range(each):
                g.feed_cards[k] = deck[j * n + (s - g.dealer - 1 + n) % n]
                k += 1
        for j in range(n * each, 52):
            g.feed_cards[j] = deck[j]
        g.feed = 1
        return 0

    def take_rng(self, seed: object = None, state: object = None) -> None:
        """Hold the owner's generator from now on: ``random.Random(seed)`` for an int ``seed``, or the
        ``random.Random`` state ``state``; later deals are drawn here as the pure engine draws them from it
        (the same numbers), recorded for :meth:`take_drawn`."""
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
        cards)``: (1 deal, dealer, 52, the pack shuffled), (0 cut for the deal, seat mask, k, k cards)."""
        return draw_take(&self.drawn) if self.drawn.n else []

    @staticmethod
    def start(rules: object, players: int, seed: object = None, state: object = None) -> NativeCardMuggins:
        """A new game as ``CardMugginsState.new`` starts it from a chance with nothing recorded and the
        generator ``random.Random(seed)`` (or in ``state``): the cut for the deal and the first deal drawn here
        (see :meth:`take_rng`, :meth:`take_drawn`); the event log starts after them."""
        cdef NativeCardMuggins nat = NativeCardMuggins.__new__(NativeCardMuggins)
        cdef NativeCardMuggins proto = _prototype(rules, players)
        cdef Game* g = &nat.g
        cdef int s
        nat.g = proto.g
        nat.rules = rules
        nat.width, nat.bound, nat.id_go = proto.width, proto.bound, proto.id_go
        nat.id_muggins, nat.id_claim, nat.id_size = proto.id_muggins, proto.id_claim, proto.id_size
        g.rng = 0
        nat.take_rng(seed, state)
        for s in range(4):
            g.scores[s] = 0
            g.held[s] = 0
        g.over = 0
        g.winners = 0
        g.w_open = 0
        g.claim = CLAIM_NONE
        g.round_no = 0
        g.dealer = mt_cut_for_deal(&nat.mt, &nat.drawn, players, g.low_first)
        g.external = 1
        nat.keep_hist = 1
        start_round(g)
        nat.resume()
        nat.g.log = &nat.evlog
        return nat

    def follow_chance(self, deal_fn: object) -> None:
        """Draw every later deal from ``deal_fn(dealer) -> (hands, stock)`` (as :meth:`feed_deal` takes
        them), called when a round needs it, and keep the history of moves (:meth:`history_ids`): a game
        that follows another engine's chance, outcome by outcome. None: deals from the generator again."""
        self.deal_fn = deal_fn
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

    def __init__(self, rules: object, players: int = 2, seed: int = 0) -> None:
        """A new game under ``rules`` (a CardMugginsRules) for ``players``, its cut and deals drawn from
        ``seed``; the event log is kept."""
        self.layout(rules, players)
        self.g.rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        self.g.log = &self.evlog
        new_game(&self.g)

    @staticmethod
    def from_state(state: object) -> NativeCardMuggins:
        """The position of a pure ``CardMugginsState`` at any point (hidden cards included); later deals come
        from the native generator (seed 0) unless fed. The log starts empty here."""
        from muggins.cards.muggins31.state import CardMugginsState

        cdef NativeCardMuggins nat = NativeCardMuggins.__new__(NativeCardMuggins)
        cdef NativeCardMuggins other
        cdef Game* g = &nat.g
        cdef int i, s
        if not isinstance(state, CardMugginsState):
            other = getattr(state, "native", None) if not isinstance(state, NativeCardMuggins) else state
            if not isinstance(other, NativeCardMuggins):
                raise TypeError(f"from_state takes a CardMugginsState, not {type(state).__name__}")
            nat.layout(other.rules, other.g.n)  # a native-backed state: its position, the log empty
            nat.g = other.g
            nat.g.log = &nat.evlog
            nat.g.external = 0
            nat.g.pending = 0
            nat.g.rng = 0
            return nat
        nat.layout(state.rules, state.num_players)
        g.log = &nat.evlog
        g.rng = 0
        g.nstamp = 0
        for s in range(4):
            g.held[s] = _mask(state.hands[s]) if s < g.n else 0
            g.scores[s] = state._scores[s] if s < g.n else 0
            if s < g.n:
                for c in state.hands[s]:
                    g.stamp[<int>c.index] = g.nstamp
                    g.nstamp += 1
        stock = state.stock
        g.nstock = len(stock)
        g.sp = 0
        for i in range(g.nstock):
            g.stock[i] = stock[g.nstock - 1 - i].index  # the pure stock's top is its end
        g.npile = len(state.pile)
        for i in range(g.npile):
            g.pile[i] = state.pile[i].index
        g.closed = 0
        for pile in state.piles:
            g.closed |= _mask(pile)
        g.total = state.total
        g.turn = state.turn
        g.dealer = state.dealer
        g.round_no = state.round_no
        g.passed = 0
        for s in range(g.n):
            if state._passed[s]:
                g.passed |= 1 << s
        g.last_player = state._last_player
        g.last_passer = state._last_passer
        g.over = state.is_over()
        g.winners = 0
        for s in state.winners():
            g.winners |= 1 << s
        w = state._window
        g.w_open = w is not None
        if w is not None:
            g.w_scorer = w.scorer
            g.w_missed = w.missed
            g.w_claimed = CLAIM_NONE if w.claimed is None else w.claimed
            g.w_reason = _REASONS.index(w.reason)
            g.w_what = _WHATS.index(w.what)
            g.w_may = w.may_claim
            g.w_late = w.late
        return nat

    def seed(self, seed: int) -> None:
        """Draw later chance (deals) from ``seed``."""
        self.g.rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)

    def feed_deal(self, hands: object, stock: object) -> None:
        """Make the next deal this one: ``hands`` the card indices of each seat in the order dealt, ``stock``
        the rest in draw order (first listed, first drawn): another engine's outcome, to follow its game."""
        cdef Game* g = &self.g
        cards = [int(c) for h in hands for c in h] + [int(c) for c in stock]
        if len(hands) != g.n or any(len(h) != g.hand_size for h in hands) or sorted(cards) != list(range(52)):
            raise ValueError(f"a deal is {g.n} hands of {g.hand_size} cards and the stock, every card once")
        for i in range(52):
            g.feed_cards[i] = cards[i]
        g.feed = 1

    def clone(self) -> NativeCardMuggins:
        """A copy (its own log, a copy of this one's)."""
        cdef NativeCardMuggins c = NativeCardMuggins.__new__(NativeCardMuggins)
        cdef long i
        c.g = self.g
        c.g.log = NULL
        c.rules = self.rules
        c.deal_fn = self.deal_fn
        c.owner = self.owner
        c.owner_deals = self.owner_deals
        c.keep_hist = self.keep_hist
        idlog_copy(&c.hist, &self.hist)
        if self.own_rng:
            c.mt = self.mt
            c.own_rng = 1
        draw_copy(&c.drawn, &self.drawn)
        c.width, c.bound, c.id_go = self.width, self.bound, self.id_go
        c.id_muggins, c.id_claim, c.id_size = self.id_muggins, self.id_claim, self.id_size
        if logging(&self.g):
            if self.evlog.n:
                c.evlog.buf = <int*>malloc(self.evlog.n * sizeof(int))
                if c.evlog.buf == NULL:
                    raise MemoryError("no memory for the event log")
                for i in range(self.evlog.n):
                    c.evlog.buf[i] = self.evlog.buf[i]
                c.evlog.cap = self.evlog.n
            c.evlog.n = self.evlog.n
            c.g.log = &c.evlog
        return c

    def set_logging(self, on: bool) -> None:
        """Keep the event log from now on, or stop keeping it (turning it off forgets it)."""
        if on:
            self.g.log = &self.evlog
        else:
            self.g.log = NULL
            self.evlog.n = 0

    def num_ids(self) -> int:
        """The size of the id space (``state.num_distinct_actions()``)."""
        return self.id_size

    def legal_ids(self, int seat) -> list:
        """The ids ``seat`` may use now, ascending (``state.legal_action_mask``): each fitting card with every
        claim code, or go; then a muggins call or a late claim while the window allows it."""
        return self.legal_list(seat)

    cdef list legal_list(self, int seat):
        cdef Game* g = &self.g
        cdef uint64_t fit
        cdef int w = self.width, start
        out = []
        if not 0 <= seat < g.n or g.over:
            return out
        if seat == g.turn:
            fit = fitting(g, seat)
            if w == 1 and not g.w_open:
                if not fit:
                    return [self.id_go]
                while fit:
                    out.append(lowbit(fit))
                    fit &= fit - 1
                return out
            while fit:
                start = lowbit(fit) * w
                out.extend(range(start, start + w))
                fit &= fit - 1
            if not out:
                out.append(self.id_go)
        if g.w_open:
            if seat != g.w_scorer:
                out.extend(range(self.id_muggins, self.id_claim))
            elif g.w_may:
                out.extend(range(self.id_claim, self.id_size))
        return out

    def regular(self, int seat) -> list:
        """The cards ``seat`` may lay now in the order of his hand (as the pure engine lists them: as dealt,
        then drawn), [-1] for a go, [] when it is not his turn."""
        cdef int cards[52]
        cdef int k = in_hand_order(&self.g, seat, cards), i
        return [] if k == 0 else [-1] if k < 0 else [cards[i] for i in range(k)]

    def bind_actions(self, table: tuple, ids: dict, window: object, slow: object) -> None:
        """Serve the owner's :meth:`legal_actions` and :meth:`apply_action`: ``table`` the Action of each
        internal id (:meth:`regular_actions`), ``ids`` the action id of each of them by ``id()`` of the
        object, ``window(seat)`` the Actions a muggins window adds, ``slow(seat, action)`` the owner's apply
        for any other action or a refusal."""
        self.act_table = table
        self.act_ids = ids
        self.act_window = window
        self.act_slow = slow

    def bind_owner(self, owner: object, table: tuple, ids: dict) -> None:
        """Serve the state ``owner`` refers to (a weak reference: the game keeps no state alive): its
        :meth:`legal_actions` and :meth:`apply_action` as :meth:`bind_actions` with its ``_window_actions`` and
        ``_apply``, its chance as :meth:`follow_chance` with its ``_draw_deal`` (one reference held, called
        back by name, for a new state at no cost of its own). ReferenceError once it is gone."""
        self.act_table = table
        self.act_ids = ids
        self.act_window = self.act_slow = self.deal_fn = None
        self.owner = owner
        self.owner_deals = 1
        self.g.external = 1
        self.keep_hist = 1
        if self.g.pending:
            self.resume()

    def legal_actions(self, seat: object) -> list:
        """As the pure state's ``legal_actions`` (see :meth:`bind_actions`)."""
        cdef Game* g = &self.g
        if type(seat) is not int or not 0 <= seat < g.n:
            seat = check_seat(seat, g.n)
        out = self.actions_of(seat, self.act_table)
        if g.w_open and not g.over:
            out.extend(window_actions(self.act_window, self.owner, seat))
        return out

    def apply_action(self, seat: object, action: object) -> None:
        """As the pure state's ``apply``: an Action of the table by its id, anything else (and a refusal)
        by the owner's apply."""
        i = self.act_ids.get(id(action))
        if i is None or type(seat) is not int:
            apply_slowly(self.act_slow, self.owner, seat, action)
            return
        try:
            self.apply_checked(seat, i)
        except IllegalAction:
            apply_slowly(self.act_slow, self.owner, seat, action)  # refuses it again, in the reference engine's words

    def regular_actions(self, int seat, tuple table) -> list:
        """The Actions of :meth:`regular`: ``table[card]`` for each card, ``table[52]`` for a go."""
        return self.actions_of(seat, table)

    cdef list actions_of(self, int seat, tuple table):
        cdef int cards[52]
        cdef int k, i
        if len(table) != 53:
            return []
        k = in_hand_order(&self.g, seat, cards)
        return [] if k == 0 else [table[GO]] if k < 0 else [table[cards[i]] for i in range(k)]

    def legal_action_ids(self, seat: object) -> list:
        """As ``GameState.legal_action_ids``: one id per legal action, ascending (each move claiming nothing, a
        muggins call naming nothing, a late claim of its true amount); NoSuchSeat for a bad seat."""
        cdef Game* g = &self.g
        cdef int w = self.width
        if type(seat) is not int or not 0 <= seat < g.n:
            check_seat(seat, g.n)
        if w == 1:
            return self.legal_list(seat)
        out = []
        for i in self.legal_list(seat):
            if i < self.id_muggins:
                if i == self.id_go or i % w == 0:
                    out.append(i)
            elif i == self.id_muggins or (i >= self.id_claim and i - self.id_claim == min(g.w_missed, g.w_late)):
                out.append(i)
        return out

    def apply_action_id(self, seat: object, i: object) -> None:
        """As ``GameState.apply_action_id``: NoSuchSeat, GameOver, UnknownAction (no such id), IllegalAction (not
        legal for ``seat`` now; a subclass names why), the game unchanged."""
        cdef Game* g = &self.g
        if type(seat) is not int or not 0 <= seat < g.n:
            check_seat(seat, g.n)
        if g.over:
            raise GameOver("the game is over")
        if type(i) is not int:
            raise UnknownAction(f"an action id is a whole number 0-{self.id_size - 1}, not {shown(i)}")
        self.apply_checked(seat, i)

    def apply_id(self, seat: int, i: int) -> None:
        """Apply id ``i`` for ``seat``, or raise (GameOver, NotYourTurn, UnknownAction, IllegalAction,
        ClaimError) leaving the game unchanged."""
        self.apply_checked(seat, i)

    cdef int apply_checked(self, object seat, object i) except -1:
        if not 0 <= seat < self.g.n:
            raise NotYourTurn(f"there is no seat {seat} in a {self.g.n}-player game")
        if not 0 <= i < self.id_size:
            raise UnknownAction(f"card Muggins ids run 0-{self.id_size - 1} under these rules; {i} is none")
        return self.apply_int(seat, i)

    cdef int apply_int(self, int seat, int i) except -1:
        cdef Game* g = &self.g
        cdef int a, claim = CLAIM_NONE
        if g.over:
            raise GameOver("the game is over")
        if i >= self.id_muggins:
            if i < self.id_claim:
                if not g.w_open:
                    raise ClaimError("no muggins window is open: a call must come before the next player acts")
                if seat == g.w_scorer:
                    raise ClaimError("you cannot call muggins on your own side")
                call_muggins(g, seat, i - self.id_muggins - 1)
            else:
                if not (g.w_open and seat == g.w_scorer and g.w_may):
                    raise ClaimError("there is nothing for you to claim now")
                late_claim(g, seat, i - self.id_claim)
            self.record(seat, i)
            return 0
        if i == self.id_go:
            a = GO
        else:
            a = i // self.width
            if self.width > 1 and i % self.width:
                claim = i % self.width - 1
        if seat != g.turn:
            raise NotYourTurn(f"it is seat {g.turn}'s turn, not seat {seat}'s")
        if a == GO:
            if fitting(g, seat):
                raise IllegalAction(f"seat {seat} can play: go only when no card keeps the total at most {g.cap}")
        elif not (fitting(g, seat) >> a) & 1:
            raise IllegalAction(f"id {i} is not a legal move of seat {seat} now")
        g.claim = claim
        apply_move(g, seat, a)
        g.claim = CLAIM_NONE
        self.record(seat, i)
        if g.pending:
            self.resume()
        return 0

    def true_points(self, seat: int, i: int) -> int:
        """The points id ``i`` (a play, its claim aside, or go) would score for ``seat`` now (``claim_for``)."""
        if i == self.id_go or not 0 <= i < self.id_go:
            return 0
        return true_points(&self.g, seat, i // self.width)

    def choose_id(self, policy: object = 0) -> int:
        """The id ``policy`` (0 random, 1 greedy; announcing its true points) picks for the seat to play,
        drawing from the game's generator; -1 once the game is over."""
        cdef int p = _policy(policy), a, pts
        if self.g.over:
            return -1
        a = choose(&self.g, self.g.turn, p, 1.0)
        if a == GO:
            return self.id_go
        pts = true_points(&self.g, self.g.turn, a) if self.g.manual else 0
        return a * self.width + (pts + 1 if pts > 0 else 0)

    def playout(self, policy: object = 0, seed: int = 0, max_moves: int = 1 << 30, until_round_end: bool = False,
                greedy: float | None = None) -> int:
        """Play on in C from here until the game is over, ``max_moves`` moves were made or, with
        ``until_round_end``, the next round is dealt; every seat uses ``policy`` (0 random, 1 greedy), every
        play announces its true points and nobody calls. ``greedy`` (a probability) plays the
        search bot's rollout instead: the most points with that probability (ties at random), else uniform,
        true points announced. Chance and choices come from ``seed``. Returns the moves made."""
        cdef int p = _policy(policy) if greedy is None else POLICY_MIXED
        cdef long cap = max_moves, done
        cdef int until = bool(until_round_end)
        cdef double q = 1.0 if greedy is None else greedy
        if cap < 0:
            raise ValueError("max_moves cannot be negative")
        if greedy is not None and not 0.0 <= greedy <= 1.0:
            raise ValueError(f"greedy is a probability (0 to 1), not {greedy!r}")
        cdef int external = self.g.external
        self.g.rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        self.g.external = 0  # a playout deals from the generator
        with nogil:
            done = run_playout(&self.g, p, cap, until, q)
        self.g.external = external
        return done

    def to_act(self) -> frozenset:
        cdef Game* g = &self.g
        cdef int m
        if g.over:
            return _SEATS[0]
        m = 1 << g.turn
        if g.w_open:
            m |= ((1 << g.n) - 1) & ~(1 << g.w_scorer)
            if g.w_may:
                m |= 1 << g.w_scorer
        return _SEATS[m]

    def waiting_for(self) -> frozenset:
        return _SEATS[0] if self.g.over else _SEATS[1 << self.g.turn]

    def is_over(self) -> bool:
        return bool(self.g.over)

    def winners(self) -> list:
        """The winning seats (one), none before the end."""
        return [s for s in range(self.g.n) if (self.g.winners >> s) & 1]

    def side_scores(self) -> tuple:
        return tuple(self.g.scores[s] for s in range(self.g.n))

    def turn(self) -> int:
        return self.g.turn

    def total(self) -> int:
        return self.g.total

    def dealer(self) -> int:
        return self.g.dealer

    def round_no(self) -> int:
        return self.g.round_no

    def held(self, int seat) -> list:
        """The card indices ``seat`` holds now, ascending."""
        return _cards(self.g.held[seat & 3])

    def stock(self) -> list:
        """The stock's card indices in draw order."""
        return [self.g.stock[i] for i in range(self.g.sp, self.g.nstock)]

    def pile(self) -> list:
        return [self.g.pile[i] for i in range(self.g.npile)]

    def closed(self) -> list:
        """The card indices of the round's closed piles, ascending."""
        return _cards(self.g.closed)

    def passed(self) -> list:
        return [s for s in range(self.g.n) if (self.g.passed >> s) & 1]

    def last_player(self) -> int:
        """The seat that laid the last card of the pile, -1: none yet."""
        return self.g.last_player

    def stock_size(self) -> int:
        return stock_left(&self.g)

    def hand_sizes(self) -> list:
        return [popcount(self.g.held[s]) for s in range(self.g.n)]

    def window(self) -> tuple | None:
        """(scorer, missed, claimed or None, reason, may claim, late) of the open window, or None."""
        cdef Game* g = &self.g
        if not g.w_open:
            return None
        return (g.w_scorer, g.w_missed, None if g.w_claimed == CLAIM_NONE else g.w_claimed, _REASONS[g.w_reason],
                bool(g.w_may), g.w_late)

    def num_events(self) -> int:
        return self.evlog.n // EV_WIDTH if logging(&self.g) else 0

    def events(self, start: int = 0) -> list:
        """The events since the game was made here (``__init__`` or ``from_state``), from the ``start``-th
        on, as the pure engine logs them."""
        if not logging(&self.g):
            raise ValueError("this game keeps no event log (set_logging(True) turns it on)")
        return _events(self.evlog.buf, self.evlog.n // EV_WIDTH, max(0, start), self.g.n)


cdef dict _PROTOTYPES = {}


cdef NativeCardMuggins _prototype(object rules, int players):
    """A game with ``rules`` for ``players`` laid out (``layout``), made once per rules object and number of
    players: a new game copies it."""
    cdef NativeCardMuggins proto
    key = (id(rules), players)
    hit = _PROTOTYPES.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    proto = NativeCardMuggins.__new__(NativeCardMuggins)
    proto.layout(rules, players)
    if len(_PROTOTYPES) > 64:
        _PROTOTYPES.clear()
    _PROTOTYPES[key] = (rules, proto)
    return proto


def from_state(state: object, seed: int = 0) -> NativeCardMuggins:
    """:meth:`NativeCardMuggins.from_state` with its generator seeded and no log (the search bot's rollouts)."""
    cdef NativeCardMuggins nat = NativeCardMuggins.from_state(state)
    nat.g.rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    nat.g.log = NULL
    return nat


cdef list _events(const int* buf, long n, long start, int players):
    """The ``Event`` objects of the records (continuation records folded into their event)."""
    from muggins.cards.dealing import DECK
    from muggins.core.protocol import Event

    out = []
    cdef long i = 0, k = 0, j
    cdef const int* r
    cdef const int* q
    cdef int kind, seat, count
    while i < n:
        r = buf + i * EV_WIDTH
        kind = r[0]
        seat = r[1]
        i += 1
        count = r[2] if kind == EV_DEALT else r[3] if kind == EV_PILE_END else 0
        cards = []
        while count > len(cards):
            q = buf + i * EV_WIDTH
            for j in range(6):
                if len(cards) < count:
                    cards.append(DECK[q[2 + j]].text)
            i += 1
        if k < start:
            k += 1
            continue
        k += 1
        who = None if seat < 0 else seat
        if kind == EV_CUT:
            seats = [s for s in range(players) if (r[2] >> s) & 1]
            e = Event("cut_for_deal", None, {"seats": seats, "cards": [DECK[r[3 + j]].text for j in range(len(seats))]})
        elif kind == EV_ROUND_START:
            e = Event("round_start", None, {"round": r[2], "dealer": r[3], "leader": r[4], "stock": r[5]})
        elif kind == EV_DEALT:
            e = Event("dealt", who, {"cards": cards, "count": r[2]}, ("cards",))
        elif kind == EV_PLAY:
            e = Event("play", who, {"card": DECK[r[2]].text, "total": r[3]})
        elif kind == EV_SCORE:
            e = Event("score", who, {"side": r[2], "points": r[3], "reason": _REASONS[r[4]]})
        elif kind == EV_DRAW:
            e = Event("draw", who, {"card": DECK[r[2]].text, "why": _DRAW_WHY[r[3]]}, ("card",))
        elif kind == EV_GO:
            e = Event("go", who, {"total": r[2]})
        elif kind == EV_PILE_END:
            e = Event("pile_end", who, {"total": r[2], "cards": cards})
        elif kind == EV_PILE_START:
            e = Event("pile_start", who, {})
        elif kind == EV_ROUND_END:
            e = Event("round_end", None, {"round": r[2], "scores": [r[3 + j] for j in range(players)]})
        elif kind == EV_TIE_BREAK:
            e = Event("tie_break", None, {"seats": [s for s in range(players) if (r[2] >> s) & 1]})
        elif kind == EV_GAME_END:
            e = Event("game_end", None, {"winners": [s for s in range(players) if (r[2] >> s) & 1],
                                         "scores": [r[3 + j] for j in range(players)]})
        elif kind == EV_CLAIM:
            e = Event("claim", who, {"points": r[2], "late": True} if r[3] else {"points": r[2]})
        elif kind == EV_OVER_CLAIM:
            what = _WHATS[r[4]]
            message = (f"announced {r[2]}, more than the {what} is worth: the claim is void and "
                       + (f"the next opponent scores {r[2]} as a penalty" if r[5] else "scores nothing"))
            e = Event("over_claim", who, {"points": r[2], "true": r[3], "what": what, "message": message}, ("true",))
        elif kind == EV_MISSED:
            e = Event("missed", who, {"side": r[2], "points": r[3], "reason": _REASONS[r[4]]})
        elif kind == EV_MUGGINS:
            e = Event("muggins", who, {"on": r[2], "outcome": _OUTCOMES[r[3]], "points": r[4],
                                       "named": None if r[5] < 0 else r[5], "missed": r[6],
                                       "reason": _REASONS[r[7]]})
        else:  # pragma: no cover - a record of no known kind
            raise ValueError(f"unknown event record {kind}")
        out.append(e)
    return out


def random_games_native(rules: object, players: int = 2, seconds: float = 1.0, seed: int = 0,
                        policy: object = 0, announce: bool = True) -> dict:
    """Whole games (the cut, every deal) with ``policy`` (uniform random by default; every play announces its
    true points, nobody calls) for about ``seconds`` of CPU time on this core, the GIL released: the throughput
    figure of ``muggins bench``. ``announce=False``: nobody announces anything (under the muggins rule such a
    game scores only "last", about a thousand moves to 61: the loop of ``muggins.perf.random_play`` with
    Action objects)."""
    cdef int p = _policy(policy)
    cdef Game g
    cdef long games = 0, moves = 0
    cdef clock_t start, now, limit = <clock_t>(seconds * CLOCKS_PER_SEC)
    set_rules(&g, rules, players)
    g.quiet = not announce
    g.rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    start = clock()
    now = start
    with nogil:
        while True:
            new_game(&g)
            moves += run_playout(&g, p, 1 << 30, 0, 1.0)
            games += 1
            if (games & 63) == 0:
                now = clock()
                if now - start >= limit:
                    break
    elapsed = (now - start) / <double>CLOCKS_PER_SEC
    return {"engine": "native", "games": games, "moves": moves, "seconds": elapsed,
            "games_per_second": games / elapsed, "moves_per_second": moves / elapsed}


def unsupported(rules: object, num_players: int) -> object:
    """Why the native engine cannot play ``rules`` with ``num_players`` (None: it can)."""
    try:
        check_rules(rules, num_players)
    except NotImplementedError as e:
        return str(e)
    return None


def random_play_native(rules: object, num_players: int, seconds: float, seed: int = 0) -> dict:
    """Whole random games for about ``seconds`` of CPU time (``muggins bench``'s native figure)."""
    return random_games_native(rules, num_players, seconds, seed)


# ------------------------------------------------------------------------------------- the search ----

cdef enum:
    MAX_PATH = 256
    MAX_TRIES = 64      # worlds drawn for one weighed world at most
    POOL = 2048         # weighed worlds drawn before a search that weighs them


cdef int draw_world(const Frame* f, Game* w, uint64_t* rng) noexcept nogil:
    """A world drawn into ``w``: uniform under the frame's masks (:func:`draw_uniform`) or, with ``infer`` or
    ``heavy``, weighed by the others' past plays (each draw kept with probability its weight, at most
    MAX_TRIES draws, else the heaviest drawn). Returns the draws made."""
    cdef int slot_card[MAX_SLOTS]
    cdef int tries = 0, bad, worse
    cdef double weight, best = -1.0
    cdef Game tmp
    if f.ndec == 0 or (f.infer <= 0 and f.heavy <= 0):
        draw_uniform(f, w, rng, slot_card)
        return 1
    while tries < MAX_TRIES:
        tries += 1
        draw_uniform(f, &tmp, rng, slot_card)
        bad = misfits(f, slot_card, &worse)
        weight = exp(-f.infer * bad - f.heavy * worse)
        if weight > best:
            best = weight
            w[0] = tmp
        if weight >= 1.0 or <double>(splitmix_next(rng) >> 11) * (1.0 / 9007199254740992.0) < weight:
            w[0] = tmp
            break
    return tries


cdef inline int points_at(const Frame* f, int total, int lead, int c) noexcept nogil:
    cdef int t = total + card_value(c)
    if t == f.base.cap:
        return f.base.cap_bonus
    if t % 5 == 0 and (not lead or f.base.lead_scores):
        return t
    return 0


cdef int misfits(const Frame* f, const int* slot_card, int* worse) noexcept nogil:
    """How many of the others' plays a card their player then held (in this world) beats in points; in
    ``worse``, how many a card of equal points and more value beats (a greedy player sheds the heavier)."""
    cdef int d, s, k, c, p, bad = 0
    cdef uint64_t hand, fit, m
    worse[0] = 0
    for d in range(f.ndec):
        hand = f.dec_known[d]
        for k in range(2):
            m = f.dec_slots[d][k]
            while m:
                s = 64 * k + lowbit(m)
                m &= m - 1
                hand |= <uint64_t>1 << slot_card[s]
        fit = hand & low_cards(f.base.cap - f.dec_total[d])
        p = 0
        while fit:
            c = lowbit(fit)
            fit &= fit - 1
            k = points_at(f, f.dec_total[d], f.dec_lead[d], c)
            if k > f.dec_pts[d]:
                p = 2
                break
            if k == f.dec_pts[d] and card_value(c) > f.dec_value[d]:
                p = 1
        if p == 2:
            bad += 1
        elif p == 1:
            worse[0] += 1
    return bad


cdef void draw_uniform(const Frame* f, Game* w, uint64_t* rng, int* slot_card) noexcept nogil:
    """A world drawn into ``w`` under the frame's masks: the unseen cards shuffled, each slot (most constrained
    first) takes the first card of the shuffle it may hold, the stock the rest in shuffled order. A slot no
    card fits takes any (the pure sampler's fallback; unreachable from a real position). ``slot_card``: the
    card each slot took."""
    cdef int order[52]
    cdef int i, j, t, s, c, n = f.npool
    cdef uint64_t taken = 0
    for i in range(n):
        order[i] = f.pool[i]
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    w[0] = f.base
    for s in range(f.nslots):
        c = -1
        for i in range(n):
            if not (taken >> order[i]) & 1 and not (f.slot_forbid[s] >> order[i]) & 1:
                c = order[i]
                break
        if c < 0:
            for i in range(n):
                if not (taken >> order[i]) & 1:
                    c = order[i]
                    break
        taken |= <uint64_t>1 << c
        slot_card[s] = c
        w.held[f.slot_owner[s]] |= <uint64_t>1 << c
    j = 0
    for i in range(n):
        if not (taken >> order[i]) & 1:
            w.stock[j] = order[i]
            j += 1
    w.sp = 0
    w.nstock = j


cdef void rewards(Game* w, const int* before, double scale, int points, double* out) noexcept nogil:
    """``_score_rewards``: 1 or 0 for a finished game (unless playing for ``points``), else the squashed gain
    over the others' mean gain since the root."""
    cdef int s, n = w.n
    cdef double total = 0.0, others
    cdef double gain[4]
    if w.over and not points:
        for s in range(n):
            out[s] = 1.0 if (w.winners >> s) & 1 else 0.0
        return
    for s in range(n):
        gain[s] = w.scores[s] - before[s]
        total += gain[s]
    for s in range(n):
        others = (total - gain[s]) / (n - 1)
        out[s] = 0.5 + 0.5 * tanh((gain[s] - others) / scale)


cdef int iterate(const Frame* f, Tree* t, uint64_t* rng, double c, int horizon, double greedy,
                 double scale, int points, int me, int model, const Game* pool, int npool) noexcept nogil:
    """One iteration from the root (node 0); -1 when the tree cannot grow (out of memory). ``model``: the
    others (not ``me``) move in the tree by the rollout policy. ``pool``: ``npool`` weighed worlds drawn
    beforehand to pick from (none: each iteration draws its own)."""
    cdef Game w
    cdef int before[4]
    cdef double r[4]
    cdef int path[MAX_PATH]
    cdef int acts[53]
    cdef int untried[53]
    cdef int npath = 0, plies = 0, node = 0, actor, n, i, ch, best, nu, pick, rnd, ended = 0, s
    cdef double v, best_v
    cdef Node* nd
    if npool:
        w = pool[below(rng, npool)]
    else:
        draw_world(f, &w, rng)
    w.rng = splitmix_next(rng)
    for s in range(4):
        before[s] = w.scores[s]
    rnd = w.round_no
    while plies < horizon and not w.over and npath < MAX_PATH:
        actor = w.turn
        n = legal_moves(&w, actor, acts)
        if n == 0:
            break
        if model and actor != me and n > 1:
            acts[0] = choose(&w, actor, POLICY_MIXED, greedy)
            n = 1
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
            pick = untried[0] if nu == 1 else untried[below(rng, nu)]
            ch = add_node(t, node, actor, pick)
            if ch < 0:
                return -1
        else:
            ch = best
            pick = t.nodes[best].action
        path[npath] = ch
        npath += 1
        w.claim = CLAIM_NONE
        if w.manual and pick != GO:
            w.claim = true_points(&w, actor, pick)
            if w.claim == 0:
                w.claim = CLAIM_NONE
        apply_move(&w, actor, pick)
        w.claim = CLAIM_NONE
        plies += 1
        node = ch
        if w.round_no != rnd:
            ended = 1
            break
        if nu:
            break
    if not ended and plies < horizon and not w.over:
        run_playout(&w, POLICY_MIXED, horizon - plies, 1, greedy)
    rewards(&w, before, scale, points, r)
    for i in range(npath):
        nd = &t.nodes[path[i]]
        nd.visits += 1
        nd.reward += r[nd.actor]
    return 0


cdef int make_frame(Frame* f, object state, int seat, bint omniscient) except -1:
    """The frame of ``state`` for ``seat``, built from ``state.view(seat)`` and ``state.events_for(seat)``
    alone, so nothing the seat may not see can reach it: the other hands emptied, each of their cards a slot
    that forbids what the holder's gos ruled out (the slots of ``sample_hidden``'s build: a play takes the
    most constrained slot that allows its card), the stock emptied; the unseen cards are the pool.
    ``omniscient``: the true position, nothing taken out (every world the same, only later deals random)."""
    from muggins.cards.muggins31.state import CardMugginsState

    cdef NativeCardMuggins game
    if isinstance(state, NativeCardMuggins):  # the frame from its game and event log, in C
        game = state
        if not 0 <= seat < game.g.n:
            raise ValueError(f"there is no seat {seat} in a {game.g.n}-player game")
        if game.g.over:
            raise GameOver("the game is over: there is nothing to search")
        if omniscient:
            f.base = game.g
            f.base.log = NULL
            plain(&f.base)
            f.npool = f.nslots = f.ndec = 0
            f.infer = f.heavy = 0.0
        elif frame_of(&game.g, seat, f) < 0:
            raise NotImplementedError("the game's event log does not hold this round from its deal")
        return 0
    if not isinstance(state, CardMugginsState) and hasattr(state, "to_pure"):
        state = state.to_pure()  # a native-backed state: its pure twin
    if not isinstance(state, CardMugginsState):
        raise TypeError(f"the native card Muggins search takes a CardMugginsState, not {type(state).__name__}")
    if not 0 <= seat < state.num_players:
        raise ValueError(f"there is no seat {seat} in a {state.num_players}-player game")
    if state.is_over():
        raise GameOver("the game is over: there is nothing to search")
    cdef NativeCardMuggins nat
    cdef Game* b = &f.base
    cdef int i, s, k, cap, d
    cdef uint64_t m, seen = 0
    f.ndec = 0
    f.infer = 0.0
    f.heavy = 0.0
    if omniscient:
        nat = NativeCardMuggins.from_state(state)
        f.base = nat.g
        b.log = NULL
        b.w_open = 0
        f.npool = 0
        f.nslots = 0
        return 0
    from muggins.cards.dealing import CARD_BY_TEXT

    view = state.view(seat)
    events = state.events_for(seat)
    set_rules(b, state.rules, state.num_players)
    cap = b.cap
    for s in range(4):
        b.held[s] = 0
        b.scores[s] = view["scores"][s] if s < b.n else 0
    b.held[seat] = 0
    for t in view["my_hand"]:
        b.held[seat] |= <uint64_t>1 << <int>CARD_BY_TEXT[t].index
    b.npile = len(view["pile"])
    for i in range(b.npile):
        b.pile[i] = CARD_BY_TEXT[view["pile"][i]].index
    b.total = view["total"]
    b.turn = view["turn"]
    b.dealer = view["dealer"]
    b.round_no = view["round"]
    b.passed = 0
    for s in view["passed"]:
        b.passed |= 1 << s
    b.last_player = -1 if view["last_player"] is None else view["last_player"]
    b.over = 0
    b.winners = 0
    b.w_open = 0  # the search makes no calls and no late claims
    # the current round's events as the seat saw them
    start = max(i for i, e in enumerate(events) if e["kind"] == "round_start")
    low = [int(low_cards(v)) for v in range(11)]
    held: list = [[] for _ in range(b.n)]  # per other seat, a slot per card it holds: [forbidden mask, card]
    plays = []  # the others' plays: (seat, total before, led, card, the slots its player held then)
    b.last_passer = -1
    npile = 0
    for e in events[start:]:
        kind = e["kind"]
        if kind in ("pile_start", "pile_end"):
            b.last_passer = -1
            npile = 0
        if kind == "go":
            b.last_passer = e["seat"]
        who = e.get("seat")
        if kind == "play":
            k = CARD_BY_TEXT[e["card"]].index
            seen |= <uint64_t>1 << k
            npile += 1
        if who is None or who == seat:
            continue
        if kind == "dealt":
            held[who] = [[0, -1] for _ in range(int(e["count"]))]
        elif kind == "draw":
            held[who].append([0, -1])
        elif kind == "go":
            m = low[max(0, min(10, cap - int(e["total"])))]
            for slot in held[who]:
                slot[0] |= m
        elif kind == "play":
            ok = [slot for slot in held[who] if not (slot[0] >> k) & 1]
            pick = max(ok, key=lambda slot: int(slot[0]).bit_count()) if ok else held[who][0]
            plays.append((who, int(e["total"]) - card_value(k), npile == 1, k, list(held[who])))
            pick[1] = k
            held[who].remove(pick)
    seen |= b.held[seat]
    f.npool = 0
    for i in range(52):
        if not (seen >> i) & 1:
            f.pool[f.npool] = i
            f.npool += 1
    slots = sorted(((-int(slot[0]).bit_count(), s, slot[0], j) for s in range(b.n) if s != seat
                    for j, slot in enumerate(held[s])), key=lambda x: x[:3])
    sizes = view["hand_sizes"]
    if any(len(held[s]) != sizes[s] for s in range(b.n) if s != seat) or \
            len(slots) + view["stock"] != f.npool or len(slots) > MAX_SLOTS:
        raise NotImplementedError("the seat's events do not account for every unseen card")
    f.nslots = len(slots)
    where = {}
    for i, (_, s, m, j) in enumerate(slots):
        f.slot_owner[i] = s
        f.slot_forbid[i] = m
        where[id(held[s][j])] = i
    f.ndec = 0
    for who, total, led, k, then in plays[-MAX_DEC:]:  # the latest plays, the ones that tell most of now
        d = f.ndec
        f.ndec += 1
        f.dec_total[d] = total
        f.dec_lead[d] = led
        f.dec_value[d] = card_value(k)
        f.dec_pts[d] = points_at(f, total, led, k)
        f.dec_known[d] = 0
        f.dec_slots[d][0] = 0
        f.dec_slots[d][1] = 0
        for slot in then:
            if slot[1] >= 0:
                f.dec_known[d] |= <uint64_t>1 << <int>slot[1]
            else:
                i = where[id(slot)]
                f.dec_slots[d][i >> 6] |= <uint64_t>1 << (i & 63)
    b.nstock = view["stock"]
    b.sp = 0
    return 0


cdef inline bint slot_before(const uint64_t* forbid, const int* owner, int a, int b) noexcept nogil:
    """Slot ``a`` fills before slot ``b``: more cards forbidden, then the lower seat, then the lower mask."""
    cdef int pa = popcount(forbid[a]), pb = popcount(forbid[b])
    if pa != pb:
        return pa > pb
    if owner[a] != owner[b]:
        return owner[a] < owner[b]
    return forbid[a] < forbid[b]


cdef int frame_of(const Game* g, int seat, Frame* f) noexcept nogil:
    """The frame of ``seat`` (to play) in ``g``, built in C from the game and its event log, equal to
    :func:`make_frame`'s from the protocol state's view and events: from the game, only the seat's own hand and
    what every seat sees (the pile, the closed piles, the total, turn, passes, scores, counts); from the log,
    only the current round's public fields - who was dealt how many cards, who drew (never the card), who said
    go at what total, who laid which card. -1 (nothing usable) without a log holding the round's start, for a
    game that is over, or when the log does not account for every unseen card."""
    cdef const EvLog* L = g.log
    cdef const int* r
    cdef Game* b = &f.base
    cdef long i, start = -1, nrec
    cdef int s, j, k, x, who, kind, nplay = 0, nslot = 0, npile = 0, best, bits, d, first, pc
    cdef int order[4][52]       # per seat, its slots in the order of its hand (slot ids)
    cdef int cnt[4]
    cdef uint64_t forbid[52]    # per slot id: the cards ruled out by its holder's gos
    cdef int card[52]           # per slot id: the card it laid (-1: still held)
    cdef int owner[52]
    cdef int p_total[52]
    cdef int p_lead[52]
    cdef int p_card[52]
    cdef uint64_t p_then[52]    # the slots its player held when it laid the card
    cdef int sorted_ids[52]
    cdef int where[52]
    cdef uint64_t seen, m
    if L == NULL or g.over or not 0 <= seat < g.n:
        return -1
    nrec = L.n // EV_WIDTH
    for i in range(nrec - 1, -1, -1):
        if L.buf[i * EV_WIDTH] == EV_ROUND_START:
            start = i
            break
    if start < 0:
        return -1
    b[0] = g[0]
    b.log = NULL
    for s in range(4):
        if s != seat:
            b.held[s] = 0
    for k in range(52):  # the deal's order and the stock say where hidden cards are: none of it is kept
        b.stock[k] = 0
        b.stamp[k] = 0
        b.feed_cards[k] = 0
    b.nstamp = 0
    b.nstock = g.nstock - g.sp
    b.sp = 0
    b.rng = 0
    b.over = 0
    b.winners = 0
    plain(b)  # the search makes no calls and no late claims
    for s in range(4):
        cnt[s] = 0
    for i in range(start, nrec):
        r = L.buf + i * EV_WIDTH
        kind = r[0]
        who = r[1]
        if kind == EV_PILE_START or kind == EV_PILE_END:
            npile = 0
        elif kind == EV_PLAY:
            npile += 1
        if who < 0 or who >= g.n or who == seat:
            continue
        if kind == EV_DEALT or kind == EV_DRAW:  # a new hand's slots, or one more
            if kind == EV_DEALT:
                cnt[who] = 0
            for j in range(r[2] if kind == EV_DEALT else 1):
                if nslot == 52:
                    return -1
                forbid[nslot] = 0
                card[nslot] = -1
                owner[nslot] = who
                order[who][cnt[who]] = nslot
                cnt[who] += 1
                nslot += 1
        elif kind == EV_GO:
            m = low_cards(g.cap - r[2])
            for j in range(cnt[who]):
                forbid[order[who][j]] |= m
        elif kind == EV_PLAY:
            if cnt[who] == 0:
                return -1
            k = r[2]
            best = 0
            bits = -1
            p_then[nplay] = 0
            for j in range(cnt[who]):  # the most constrained slot that allows the card (the first such)
                x = order[who][j]
                p_then[nplay] |= <uint64_t>1 << x
                if not (forbid[x] >> k) & 1:
                    pc = popcount(forbid[x])
                    if pc > bits:
                        bits = pc
                        best = j
            p_total[nplay] = r[3] - card_value(k)
            p_lead[nplay] = npile == 1
            p_card[nplay] = k
            nplay += 1
            card[order[who][best]] = k
            cnt[who] -= 1
            for j in range(best, cnt[who]):
                order[who][j] = order[who][j + 1]
    seen = g.held[seat] | g.closed
    for k in range(g.npile):
        seen |= <uint64_t>1 << g.pile[k]
    f.npool = 0
    for k in range(52):
        if not (seen >> k) & 1:
            f.pool[f.npool] = k
            f.npool += 1
    x = 0
    for s in range(g.n):
        if s == seat:
            continue
        if cnt[s] != popcount(g.held[s]):
            return -1
        for j in range(cnt[s]):  # insertion in the order of the seats and hands, stable
            k = x
            while k > 0 and slot_before(forbid, owner, order[s][j], sorted_ids[k - 1]):
                sorted_ids[k] = sorted_ids[k - 1]
                k -= 1
            sorted_ids[k] = order[s][j]
            x += 1
    if x + b.nstock != f.npool or x > MAX_SLOTS:
        return -1
    f.nslots = x
    for i in range(x):
        f.slot_owner[i] = owner[sorted_ids[i]]
        f.slot_forbid[i] = forbid[sorted_ids[i]]
        where[sorted_ids[i]] = <int>i
    f.ndec = 0
    f.infer = 0.0
    f.heavy = 0.0
    first = nplay - MAX_DEC if nplay > MAX_DEC else 0
    for j in range(first, nplay):  # the latest plays, the ones that tell most of now
        d = f.ndec
        f.ndec += 1
        f.dec_total[d] = p_total[j]
        f.dec_lead[d] = p_lead[j]
        f.dec_value[d] = card_value(p_card[j])
        f.dec_pts[d] = points_at(f, p_total[j], p_lead[j], p_card[j])
        f.dec_known[d] = 0
        f.dec_slots[d][0] = 0
        f.dec_slots[d][1] = 0
        m = p_then[j]
        while m:
            x = lowbit(m)
            m &= m - 1
            if card[x] >= 0:
                f.dec_known[d] |= <uint64_t>1 << card[x]
            else:
                f.dec_slots[d][where[x] >> 6] |= <uint64_t>1 << (where[x] & 63)
    return 0


cdef long search_loop(const Frame* f, Tree* t, uint64_t* rng, long budget, double limit, double c, int hz,
                      double greedy, double scale, int points, int me, int model, Game* pool, int* npool,
                      int* failed) noexcept nogil:
    """The search's iterations from the root (node 0 of ``t``): first ``npool`` weighed worlds drawn into
    ``pool`` (fewer if the time runs out), then at most ``budget`` iterations; ``limit`` seconds at most (0:
    no clock, the budget alone). Returns the iterations done; ``failed`` set when the tree outgrew memory."""
    cdef long done = 0
    cdef int i
    cdef double deadline = now_seconds() + limit if limit > 0 else 0.0
    for i in range(npool[0]):
        draw_world(f, &pool[i], rng)
        if limit > 0 and (i & 63) == 63 and now_seconds() >= deadline:
            npool[0] = i + 1
            break
    while done < budget:
        if iterate(f, t, rng, c, hz, greedy, scale, points, me, model, pool, npool[0]) < 0:
            failed[0] = 1
            break
        done += 1
        if limit > 0 and (done & 15) == 0 and now_seconds() >= deadline:
            break
    return done


cdef int search_move(Game* g, int seat, long iterations, double c, int horizon, double greedy,
                     double scale) noexcept nogil:
    """The search bot's move (a card, or GO) for ``seat``, the one to play in ``g``: :func:`search`'s
    SO-ISMCTS at ``iterations`` iterations and no clock, every world drawn from :func:`frame_of` (what the seat
    knows), worlds not weighed, the others not modelled, its generator seeded from the game's. -1 when it cannot
    run (no usable log, no memory)."""
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    cdef Tree t
    cdef uint64_t rng = splitmix_next(&g.rng)
    cdef int failed = 0, npool = 0, best, move = -1
    if f == NULL:
        return -1
    if frame_of(g, seat, f) < 0:
        free(f)
        return -1
    t.cap = 1024
    t.size = 0
    t.nodes = <Node*>malloc(t.cap * sizeof(Node))
    if t.nodes != NULL:
        add_node(&t, -1, -1, -1)
        search_loop(f, &t, &rng, iterations, 0.0, c, horizon, greedy, scale, 0, seat, 0, NULL, &npool, &failed)
        best = best_child(&t, seat)
        if best >= 0:
            move = t.nodes[best].action
        free(t.nodes)
    free(f)
    return move


cdef dict frame_dict(const Frame* f):
    cdef const Game* b = &f.base
    return {"players": b.n, "hands": [_cards(b.held[s]) for s in range(b.n)],
            "scores": [b.scores[s] for s in range(b.n)], "pile": [b.pile[i] for i in range(b.npile)],
            "total": b.total, "turn": b.turn, "dealer": b.dealer, "round": b.round_no, "passed": b.passed,
            "last_player": b.last_player, "last_passer": b.last_passer, "stock": b.nstock - b.sp,
            "window": b.w_open, "over": b.over, "pool": [f.pool[i] for i in range(f.npool)],
            "slots": [(f.slot_owner[i], f.slot_forbid[i]) for i in range(f.nslots)],
            "plays": [(f.dec_total[d], f.dec_lead[d], f.dec_pts[d], f.dec_value[d], f.dec_known[d],
                       f.dec_slots[d][0], f.dec_slots[d][1]) for d in range(f.ndec)]}


def seat_frame(source: object, seat: int) -> dict:
    """What the search of ``seat`` knows in ``source`` (see :func:`make_frame`): the frame a protocol state
    (``CardMugginsState`` or native-backed) gives from its view and events, or the one a
    :class:`NativeCardMuggins` gives in C from its game and event log (:func:`frame_of`, as the batched
    environment's search opponent builds it). A dict of card indices: the hands with the unseen cards taken
    out, the public position, ``pool`` (the unseen cards), ``slots`` ((owner, forbidden cards mask) in filling
    order) and ``plays`` (the others' plays of the round as the weighed worlds read them)."""
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    if f == NULL:
        raise MemoryError()
    try:
        make_frame(f, source, seat, False)
        return frame_dict(f)
    finally:
        free(f)


cdef dict world_dict(Game* w):
    return {"hands": [_cards(w.held[s]) for s in range(w.n)], "stock": [w.stock[i] for i in range(w.sp, w.nstock)],
            "pile": [w.pile[i] for i in range(w.npile)], "total": w.total, "turn": w.turn,
            "scores": [w.scores[s] for s in range(w.n)]}


def sample_world(state: object, seat: int, seed: int = 0, double infer=0.0, double infer_heavy=0.0) -> dict:
    """One world the search of ``seat`` could draw in ``state`` (a protocol state or a :class:`NativeCardMuggins`,
    as :func:`seat_frame` takes them; card indices): ``hands`` held now, ``stock``
    in draw order, ``pile``; weighed by the others' past plays with ``infer`` and ``infer_heavy`` as
    :func:`search` weighs them. It depends only on what ``seat`` has seen and ``seed``."""
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    cdef Game w
    cdef uint64_t rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    if f == NULL:
        raise MemoryError()
    try:
        make_frame(f, state, seat, False)
        f.infer = infer
        f.heavy = infer_heavy
        draw_world(f, &w, &rng)
        return world_dict(&w)
    finally:
        free(f)


def search(state: object, seat: int, iterations: int, time_limit: float, exploration: float = 0.7,
           horizon: int = 120, rollout_greedy: float = 0.8, seed: int = 0, omniscient: bool = False,
           reward_scale: float = 0.0, bint play_for_points=False, double infer=0.0, double infer_heavy=0.0,
           bint opponent_model=False) -> dict:
    """SO-ISMCTS for ``seat`` in ``state`` (a protocol state, or a :class:`NativeCardMuggins` whose frame comes
    from its event log: :func:`seat_frame`), as ``SearchPolicy`` runs it, in C with
    the GIL released: at most ``iterations`` iterations or ``time_limit`` seconds, UCB1 with ``exploration``
    and availability counts, ``horizon`` plies per iteration, rollouts greedy with probability
    ``rollout_greedy`` and stopped at the round's end, every play announcing its true points and nobody
    calling. Deterministic for a ``seed`` when the iterations run out first. Returns {"action": the id of the
    most visited move of ``seat`` (a play without its claim, or go), "iterations": done, "children": [(id,
    visits, reward sum), ...]}. ``omniscient``: the ceiling's search (every world the true position).
    ``reward_scale``: the points difference the squashed reward turns on (0: a tenth of the target, at least
    5); ``play_for_points``: a finished game is rewarded by its points too, not 1 or 0. ``infer`` (0-10): each
    world weighed by exp(-infer) for every play of another seat in this round that a card its player then held
    (in that world) would have beaten in points, and ``infer_heavy`` (0-10) by exp(-infer_heavy) for every one
    that a card of equal points and more value would have (a greedy player's choices: what it passed over it
    did not hold); ``opponent_model``: the others move in the tree as in the rollouts."""
    if iterations < 1 or not time_limit > 0:
        raise ValueError("a search needs at least one iteration and a positive time limit")
    if horizon < 1:
        raise ValueError(f"the horizon is at least one move, not {horizon}")
    if not 0.0 <= rollout_greedy <= 1.0:
        raise ValueError(f"rollout_greedy is a probability (0 to 1), not {rollout_greedy!r}")
    if reward_scale < 0:
        raise ValueError(f"the reward scale is a positive number of points, not {reward_scale!r}")
    if not (0.0 <= infer <= 10.0 and 0.0 <= infer_heavy <= 10.0):
        raise ValueError(f"infer and infer_heavy are between 0 and 10, not {infer!r} and {infer_heavy!r}")
    cdef Frame* f = <Frame*>malloc(sizeof(Frame))
    cdef Tree t
    cdef uint64_t rng = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
    cdef long budget = min(iterations, 1 << 62), done = 0
    cdef double c = exploration, greedy = rollout_greedy, limit = time_limit, scale
    cdef int hz = min(horizon, 1 << 30), failed = 0, ch, best, s = seat, points = play_for_points, width
    cdef int acts[53]
    cdef int nlegal, npool = 0
    cdef Game* pool = NULL
    if f == NULL:
        raise MemoryError()
    t.nodes = NULL
    try:
        make_frame(f, state, seat, omniscient)
        f.infer = infer
        f.heavy = infer_heavy
        rules = (<NativeCardMuggins>state).rules if isinstance(state, NativeCardMuggins) else state.rules
        scale = reward_scale if reward_scale > 0 else max(5.0, rules.target / 10.0)
        width = rules.max_step_points + 2 if f.base.manual else 1
        t.cap = 1024
        t.size = 0
        t.nodes = <Node*>malloc(t.cap * sizeof(Node))
        if t.nodes == NULL:
            raise MemoryError()
        add_node(&t, -1, -1, -1)
        if f.ndec and (f.infer > 0 or f.heavy > 0):  # weighed worlds cost up to MAX_TRIES draws: draw a pool
            npool = <int>min(budget, POOL)
            pool = <Game*>malloc(npool * sizeof(Game))
            if pool == NULL:
                raise MemoryError()
        with nogil:
            done = search_loop(f, &t, &rng, budget, limit, c, hz, greedy, scale, points, s, opponent_model, pool,
                               &npool, &failed)
        if failed:
            raise MemoryError("the search tree outgrew memory")
        children = []
        ch = t.nodes[0].first
        while ch >= 0:
            if t.nodes[ch].actor == s:
                children.append((52 * width if t.nodes[ch].action == GO else t.nodes[ch].action * width,
                                 t.nodes[ch].visits, t.nodes[ch].reward))
            ch = t.nodes[ch].next
        best = best_child(&t, s)
        if best >= 0:
            action = 52 * width if t.nodes[best].action == GO else t.nodes[best].action * width
        else:  # not the seat's turn: any of its moves
            nlegal = legal_moves(&f.base, s, acts)
            action = -1 if not nlegal else (52 * width if acts[0] == GO else acts[below(&rng, nlegal)] * width)
        return {"action": action, "iterations": done, "children": children}
    finally:
        free(pool)
        free(t.nodes)
        free(f)

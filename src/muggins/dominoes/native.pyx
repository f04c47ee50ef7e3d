# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A native domino engine for playouts: one game held in C data (hands as bitmasks, the layout in fixed
arrays, actions as the integer ids of docs/actions.md), played without returning to Python.

The reference is :mod:`muggins.dominoes.state`; this mirrors its rules for the ``muggins`` preset family
(see :func:`unsupported` for the exact scope) and is checked against it move by move by
tests/dominoes/test_native.py. It is for rollouts; asked to (``log=True``), it also keeps the pure engine's
event log as ints, made into Events only when read (:mod:`muggins.dominoes.fast`, which also gives the
protocol state on this engine; tests/dominoes/test_native_events.py), and from that log the order of each hand
and of the free places, which the protocol's Actions follow (``legal_actions``, ``apply``).

Chance comes from a small PRNG of its own (splitmix64), so a playout is reproducible from its seed. Deals
are native (they need not match the pure engine's Chance). :meth:`NativeDominoes.apply_id` draws the last
tile of the boneyard, as the pure engine does (so a state read with :meth:`NativeDominoes.from_state` draws
the same tiles); :meth:`NativeDominoes.playout` draws a tile at random from it (the boneyard is unseen, so
any order is as likely: repeated playouts from one sampled world see different draws).

Presets played: every one, with every player count from 2 to 4 the pure engine allows it (seven-rocks as
two partnerships of two: scores, windows and winners by side). :func:`unsupported` says exactly which option
stops a game (the sniff spinners, tile sets above double-9, draw limits, a forced highest-double lead).
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc

from muggins.core.splitmix cimport splitmix_next, splitmix_unit
from libc.time cimport clock, CLOCKS_PER_SEC

import random as _random
from functools import partial

from muggins.core.errors import ClaimError, GameOver, IllegalAction, NoSuchSeat, UnknownAction
from muggins.core.protocol import MUGGINS, Action
from muggins.dominoes.tiles import full_set

# The constants, the Rules and Game structs and the C functions other modules use are declared in native.pxd.


# ------------------------------------------------------------------------------------------- PRNG ----
cdef inline uint64_t next_u64(Game* g) noexcept nogil:
    """The next 64 bits of the game's own generator (splitmix64, muggins/core/splitmix.pxd)."""
    return splitmix_next(&g.rng)


cdef inline int below(Game* g, int k) noexcept nogil:
    """A uniform integer 0 .. k - 1 (k small: the modulo bias is below 2^-50)."""
    return <int>(next_u64(g) % <uint64_t>k)


cdef inline void shuffle_ints(int* a, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates over ``a[0 .. n - 1]``, from the last place down (the deal's and the sampler's order)."""
    cdef int i, j, tmp
    for i in range(n - 1, 0, -1):
        j = <int>(splitmix_next(rng) % <uint64_t>(i + 1))
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


cdef inline int popcount64(uint64_t x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef inline int lowbit(uint64_t x) noexcept nogil:
    cdef int i = 0
    while not (x >> i) & 1:
        i += 1
    return i


# -------------------------------------------------------------------------------------- event log ----
# With logging on, the engine appends every event the pure engine logs as a few ints: a code, then its
# fields. :mod:`muggins.dominoes.fast` turns them into Events only when they are asked for. Off (the
# default, and in clones and playouts), each log_ call is one test.
cdef enum:
    EV_ACT = 0        # seat, action id: an applied action (the history, not an event)
    EV_LOT = 1        # seats mask, k, then k tiles (the seats in order)
    EV_DEAL = 2       # hand, leader, boneyard size, then every tile in shuffle order (hands, then boneyard)
    EV_PLAY = 3       # seat, tile, free place (-1: the lead), count after
    EV_DRAW = 4       # seat, tile, forced (0: a voluntary draw beside a play)
    EV_PASS = 5       # seat
    EV_CLAIM = 6      # seat, points, late
    EV_OVER = 7       # seat, points, true points, what (R_PLAY: the play, R_DOMINO: the play and its bonus)
    EV_SCORE = 8      # seat (-1: none), side, points, reason
    EV_VOID = 9       # seat (-1: none), side, points, reason, why
    EV_MISSED = 10    # seat, points, reason (the decoder knows the seat's side)
    EV_MUGGINS = 11   # seat, on, outcome + 4 * the window's reason, points, named (-1: none), missed
    EV_HAND_END = 12  # seat (-1: none), reason (0 domino, 1 blocked)
    EV_TIE = 13       # hands
    EV_END = 14       # winners (a mask of sides), then the 4 side scores (the decoder keeps the sides')
    EV_KNOCK = 15     # seat, partner (1: a knock back)
    R_PLAY = 0
    R_DOMINO = 1
    R_PENALTY = 2
    R_OWN = 3
    R_BLOCKED = 4
    R_MUGGED = 5
    R_FALSE = 6
    R_MUGGINS = 7
    WHY_ENTRY = 0
    WHY_TARGET = 1
    WHY_DOWN = 2
    OC_STEAL = 0
    OC_FORFEIT = 1
    OC_STEAL_DEDUCT = 2
    OC_FALSE = 3


cdef int log_room(Game* g, int k) noexcept nogil:
    """Room for ``k`` more ints (1), or 0 when memory ran out (logging stops; the log says it is lost)."""
    cdef int cap
    cdef int* p
    if g.nev + k <= g.evcap:
        return 1
    cap = g.evcap * 2 if g.evcap * 2 >= g.nev + k else g.nev + k + 256
    p = <int*>realloc(g.ev, cap * sizeof(int))
    if p == NULL:
        g.ev_on = 0
        g.ev_lost = 1
        return 0
    g.ev = p
    g.evcap = cap
    return 1


cdef void log_put(Game* g, int k, int a, int b, int c, int d, int e, int f, int h) noexcept nogil:
    """Append ``k`` (at most 7) of a .. h: one record."""
    cdef int vals[7]
    cdef int i
    if not g.ev_on or not log_room(g, k):
        return
    vals[0] = a
    vals[1] = b
    vals[2] = c
    vals[3] = d
    vals[4] = e
    vals[5] = f
    vals[6] = h
    for i in range(k):
        g.ev[g.nev + i] = vals[i]
    g.nev += k


cdef inline void log_why(Game* g, int seat, int reason) noexcept nogil:
    """Who and why the next :func:`award` scores (its score or void event names them)."""
    g.why_seat = seat
    g.why_reason = reason


cdef inline void log_score(Game* g, int side, int points) noexcept nogil:
    if g.ev_on:
        log_put(g, 5, EV_SCORE, g.why_seat, side, points, g.why_reason, 0, 0)


cdef inline void log_void(Game* g, int side, int points, int why) noexcept nogil:
    if g.ev_on:
        log_put(g, 6, EV_VOID, g.why_seat, side, points, g.why_reason, why, 0)


cdef inline void log_missed(Game* g, int seat, int points, int reason) noexcept nogil:
    """Points of ``seat`` left unclaimed for good (none: nothing logged)."""
    if g.ev_on and points > 0:
        log_put(g, 4, EV_MISSED, seat, points, reason, 0, 0, 0)


cdef inline void log_window(Game* g, int reason) noexcept nogil:
    """The reason of the window just opened, for the events that close it (missed, muggins, a late claim)."""
    g.w_reason = reason


cdef inline void log_close(Game* g) noexcept nogil:
    """The open window closes: what it still holds is missed."""
    if g.ev_on and g.w_open:
        log_missed(g, g.w_scorer, g.w_missed, g.w_reason)


cdef inline void log_act(Game* g, int seat, int i) noexcept nogil:
    if g.ev_on:
        log_put(g, 3, EV_ACT, seat, i, 0, 0, 0, 0)


cdef inline void log_play(Game* g, int seat, int t, int k) noexcept nogil:
    if g.ev_on:
        log_put(g, 5, EV_PLAY, seat, t, k, g.count, 0, 0)


cdef inline void log_draw(Game* g, int seat, int t, int forced) noexcept nogil:
    if g.ev_on:
        log_put(g, 4, EV_DRAW, seat, t, forced, 0, 0, 0)


cdef inline void log_knock(Game* g, int seat, int partner) noexcept nogil:
    if g.ev_on:
        log_put(g, 3, EV_KNOCK, seat, partner, 0, 0, 0, 0)


cdef inline void log_pass(Game* g, int seat) noexcept nogil:
    if g.ev_on:
        log_put(g, 2, EV_PASS, seat, 0, 0, 0, 0, 0)


cdef inline void log_claim(Game* g, int seat, int points, int late) noexcept nogil:
    """A claim announced (``points`` -1: said nothing, not logged)."""
    if g.ev_on and points >= 0:
        log_put(g, 4, EV_CLAIM, seat, points, late, 0, 0, 0)


cdef inline void log_over(Game* g, int seat, int points, int true_points, int what) noexcept nogil:
    if g.ev_on:
        log_put(g, 5, EV_OVER, seat, points, true_points, what, 0, 0)


cdef inline void log_muggins(Game* g, int seat, int outcome, int points, int named) noexcept nogil:
    if g.ev_on:
        log_put(g, 7, EV_MUGGINS, seat, g.w_scorer, outcome + 4 * g.w_reason, points, named, g.w_missed)


cdef inline void log_hand_end(Game* g, int seat, int reason) noexcept nogil:
    if g.ev_on:
        log_put(g, 3, EV_HAND_END, seat, reason, 0, 0, 0, 0)


cdef inline void log_tie(Game* g, int hands) noexcept nogil:
    if g.ev_on:
        log_put(g, 2, EV_TIE, hands, 0, 0, 0, 0, 0)


cdef inline void log_finish(Game* g, int sides) noexcept nogil:
    """The game ends: the open window's points are missed, then the winners and the scores."""
    if g.ev_on:
        log_close(g)
        log_put(g, 6, EV_END, sides, g.scores[0], g.scores[1], g.scores[2], g.scores[3], 0)


cdef void log_lot(Game* g, int seats, int k, int* tiles) noexcept nogil:
    cdef int i
    if not g.ev_on or not log_room(g, 3 + k):
        return
    log_put(g, 3, EV_LOT, seats, k, 0, 0, 0, 0)
    for i in range(k):
        g.ev[g.nev + i] = tiles[i]
    g.nev += k


cdef void log_deal(Game* g, Rules* r, int* tiles) noexcept nogil:
    cdef int i
    if not g.ev_on or not log_room(g, 4 + r.ntiles):
        return
    log_put(g, 4, EV_DEAL, g.hand_no, g.leader, g.nbone, 0, 0, 0)
    for i in range(r.ntiles):
        g.ev[g.nev + i] = tiles[i]
    g.nev += r.ntiles


cdef inline void log_void_step(Game* g, Rules* r, int seat, int step) noexcept nogil:
    """Going out would pass an exact target: the whole step (play and bonus) is void."""
    if g.ev_on and step > 0 and r.exact_target and g.scores[r.side[seat]] + step > r.target:
        log_why(g, seat, R_DOMINO)
        log_void(g, r.side[seat], step, WHY_TARGET)


# --------------------------------------------------------------------------------------- geometry ----
cdef inline int pop2(int x) noexcept nogil:
    return (x & 1) + ((x >> 1) & 1)


cdef inline int contribution(int kind, int mask, int v0, int v1, int se) noexcept nogil:
    """What one layout tile adds to the count (as ``state.contribution``, for the kinds in scope)."""
    if kind == K_NONDOUBLE:
        return (0 if mask & 1 else v0) + (0 if mask & 2 else v1)
    if kind == K_CROSS:
        return v0 + v0 if pop2(mask & 3) <= 1 else 0
    if pop2(mask & 3) <= 1:
        return v0 + v0
    return v0 * (2 - pop2((mask >> 2) & 3)) if se else 0


cdef inline int node_contribution(Game* g, Rules* r, int node) noexcept nogil:
    return contribution(g.kind[node], g.nmask[node], g.v0[node], g.v1[node], r.sniff_ends)


cdef void rebuild_places(Game* g, Rules* r) noexcept nogil:
    """The free places in numbering order: by layout tile, then slot (``_compute_positions``)."""
    cdef int node, kind, mask, line, branch, k = 0
    for node in range(g.nnodes):
        kind = g.kind[node]
        mask = g.nmask[node]
        if kind == K_NONDOUBLE:
            if mask == 3:
                continue
            if not mask & 1:
                g.pnode[k] = node
                g.pbit[k] = 1
                g.pval[k] = g.v0[node]
                k += 1
            if not mask & 2:
                g.pnode[k] = node
                g.pbit[k] = 2
                g.pval[k] = g.v1[node]
                k += 1
            continue
        line = mask & 3
        if line != 3:
            g.pnode[k] = node
            g.pbit[k] = 2 if line & 1 else 1
            g.pval[k] = g.v0[node]
            k += 1
        if kind == K_CROSS:
            continue
        branch = mask & 12
        if branch != 12 and (line == 3 or not r.sides_first):
            g.pnode[k] = node
            g.pbit[k] = 8 if branch & 4 else 4
            g.pval[k] = g.v0[node]
            k += 1
    g.nplaces = k


cdef inline int double_kind(Game* g, Rules* r) noexcept nogil:
    if r.all_doubles:
        return K_SPINNER
    if not r.spins or g.spinner >= 0:
        return K_CROSS
    return K_SPINNER


cdef int count_after(Game* g, Rules* r, int t, int k) noexcept nogil:
    """The count if tile ``t`` were laid on free place ``k`` (-1: led)."""
    cdef int hi = r.hi[t], lo = r.lo[t]
    if k < 0:
        return hi + hi if hi == lo else hi + lo
    cdef int p = g.pnode[k], v = g.pval[k], kind = g.kind[p], mask = g.nmask[p]
    cdef int c = g.count - contribution(kind, mask, g.v0[p], g.v1[p], r.sniff_ends) \
        + contribution(kind, mask | g.pbit[k], g.v0[p], g.v1[p], r.sniff_ends)
    if hi == lo:
        return c + contribution(double_kind(g, r), 1, v, v, r.sniff_ends)
    return c + (lo if v == hi else hi)


cdef inline int move_points(Game* g, Rules* r, int mv) noexcept nogil:
    """The points regular move ``mv`` (a play: tile x slot) makes now."""
    return r.table[count_after(g, r, mv // r.slots, mv % r.slots - 1)]


cdef void place(Game* g, Rules* r, int t, int k) noexcept nogil:
    """Lay tile ``t`` on free place ``k`` (-1: the lead), as ``DominoState._place``."""
    cdef int hi = r.hi[t], lo = r.lo[t], nid = g.nnodes, kind, v0, v1, mask, p, v
    if k < 0:
        if hi == lo:
            kind = double_kind(g, r)
            v0 = hi
            v1 = hi
        else:
            kind = K_NONDOUBLE
            v0 = hi
            v1 = lo
        mask = 0
    else:
        p = g.pnode[k]
        v = g.pval[k]
        g.count -= node_contribution(g, r, p)
        g.nmask[p] |= g.pbit[k]
        g.count += node_contribution(g, r, p)
        if hi == lo:
            kind = double_kind(g, r)
            v0 = v
            v1 = v
        else:
            kind = K_NONDOUBLE
            v0 = v
            v1 = lo if v == hi else hi
        mask = 1
    if g.spinner < 0 and r.spins and kind == K_SPINNER:
        g.spinner = nid
    g.kind[nid] = kind
    g.v0[nid] = v0
    g.v1[nid] = v1
    g.nmask[nid] = mask
    g.nnodes = nid + 1
    g.count += node_contribution(g, r, nid)
    rebuild_places(g, r)


# ------------------------------------------------------------------------------------ legal moves ----
# A regular move is its base in the id numbering: a play is ``tile * slots + slot`` (slot 0 the lead,
# 1 + k free place k); then DRAW = ntiles * slots, PASS = DRAW + 1 and KNOCK = DRAW + 2.

cdef int fill_node(Game* g, Rules* r) noexcept nogil:
    """The one layout tile a play must go on (-1: any): under ``spinner_fill_first`` the spinner while it
    has a free face (``DominoState._posflat``)."""
    cdef int k
    if r.fill_first and g.spinner >= 0:
        for k in range(g.nplaces):
            if g.pnode[k] == g.spinner:
                return g.spinner
    return -1


cdef inline int can_draw(Game* g, Rules* r) noexcept nogil:
    """``DominoState._can_draw``: the leader draws only for a double he must set; a player within the
    turn's draw limit."""
    if g.nbone <= r.reserve:
        return 0
    if g.lead_phase:
        return r.lead_draw
    return g.draws < r.draw_limit


cdef int has_play(Game* g, Rules* r, int seat) noexcept nogil:
    """Whether ``seat`` holds a tile that fits where a tile may go now (after the lead)."""
    cdef int k, only = fill_node(g, r)
    cdef uint64_t vals = 0
    for k in range(g.nplaces):
        if only < 0 or g.pnode[k] == only:
            vals |= r.by_value[g.pval[k]]
    return (g.hand[seat] & vals) != 0


cdef int regular(Game* g, Rules* r, int seat, int* out) noexcept nogil:
    """The legal moves of ``seat`` (claims and calls aside), as ``DominoState._regular``."""
    if g.over or seat != g.turn:
        return 0
    cdef int n = 0, k, t, slots = r.slots, only = -1
    cdef uint64_t m = g.hand[seat]
    if g.lead_phase:
        m &= r.lead_ok
        while m:
            t = lowbit(m)
            m &= m - 1
            out[n] = t * slots
            n += 1
    elif r.fill_first and fill_node(g, r) >= 0:
        only = g.spinner
        for k in range(g.nplaces):
            if g.pnode[k] != only:
                continue
            m = g.hand[seat] & r.by_value[g.pval[k]]
            while m:
                t = lowbit(m)
                m &= m - 1
                out[n] = t * slots + 1 + k
                n += 1
    else:
        for k in range(g.nplaces):
            m = g.hand[seat] & r.by_value[g.pval[k]]
            while m:
                t = lowbit(m)
                m &= m - 1
                out[n] = t * slots + 1 + k
                n += 1
    if r.knocking or r.voluntary:
        return knock_or_draw(g, r, out, n)
    if n:
        return n
    out[0] = r.ntiles * slots + (0 if can_draw(g, r) else 1)
    return 1


cdef int knock_or_draw(Game* g, Rules* r, int* out, int n) noexcept nogil:
    """The end of :func:`regular` under knocking or a voluntary draw, given its ``n`` plays: after a
    partner's knock only scoring plays (else a knock back); a draw beside plays; a knock beside a draw."""
    cdef int j = 0, k, slots = r.slots
    if g.knock == KN_PARTNER:
        for k in range(n):
            if move_points(g, r, out[k]) > 0:
                out[j] = out[k]
                j += 1
        if j == 0:
            out[0] = r.ntiles * slots + 2
            return 1
        return j
    if n:
        if r.voluntary and can_draw(g, r):
            out[n] = r.ntiles * slots
            n += 1
        return n
    if can_draw(g, r):
        out[0] = r.ntiles * slots
        if r.knocking and g.knock == KN_NONE and g.draws == 0 and not g.lead_phase:
            out[1] = r.ntiles * slots + 2
            return 2
        return 1
    out[0] = r.ntiles * slots + 1
    return 1


# ----------------------------------------------------------------------------------------- scoring ----
cdef inline int round_nearest(int p, int unit) noexcept nogil:
    if unit <= 1:
        return p
    if p < 0:
        return -round_nearest(-p, unit)
    return unit * ((p + (unit - 1) // 2) // unit)


cdef inline int prime_at_most(int n) noexcept nogil:
    cdef int p, q, ok
    p = n
    while p > 1:
        ok = 1
        q = 2
        while q * q <= p:
            if p % q == 0:
                ok = 0
                break
            q += 1
        if ok:
            return p
        p -= 1
    return 0


cdef void finish(Game* g, int sides) noexcept nogil:
    log_finish(g, sides)
    g.over = 1
    g.winners = sides
    g.w_open = 0


cdef inline void check_win(Game* g, Rules* r, int side) noexcept nogil:
    if not g.over and not r.end_of_hand and g.scores[side] >= r.target:
        finish(g, 1 << side)


cdef int award(Game* g, Rules* r, int side, int points, int check, int down) noexcept nogil:
    """Credit ``points`` (entry threshold, exact target, no win on the lead), as ``DominoState._award``."""
    if points == 0:
        return 0
    if points > 0 and not g.entered[side]:
        if points < r.entry:
            log_void(g, side, points, WHY_ENTRY)
            return 0
        g.entered[side] = 1
    cdef int new = g.scores[side] + points
    if points > 0 and r.exact_target and new > r.target:
        log_void(g, side, points, WHY_TARGET)
        return 0
    if points > 0 and down and r.no_win_on_down and new >= r.target:
        log_void(g, side, points, WHY_DOWN)
        return 0
    g.scores[side] = new
    log_score(g, side, points)
    if check:
        check_win(g, r, side)
    return 1


cdef void over_claim(Game* g, Rules* r, int seat, int amount) noexcept nogil:
    """An over-claim is void; under ``over_claim=opponent_scores`` the next opponent scores it."""
    if r.over_claim_penalty and r.n > 1:
        log_why(g, (seat + 1) % r.n, R_PENALTY)
        award(g, r, r.side[(seat + 1) % r.n], amount, 1, 0)


cdef void open_window(Game* g, Rules* r, int seat, int missed, int claim) noexcept nogil:
    if g.over:
        log_missed(g, seat, missed, R_PLAY)
        return
    log_window(g, R_PLAY)
    g.w_open = 1
    g.w_scorer = seat
    g.w_missed = missed
    g.w_may = 1 if claim < 0 and r.lenient else 0
    g.w_late = missed if g.w_may else 0
    g.w_claimed = claim + 1


cdef void score_step(Game* g, Rules* r, int seat, int pts, int claim, int down) noexcept nogil:
    """One scoring step (``GameState._score_step``): ``claim`` -1 says nothing."""
    cdef int awarded, missed
    if not r.manual:
        if pts:
            log_why(g, seat, R_PLAY)
            award(g, r, r.side[seat], pts, 1, down)
        return
    log_claim(g, seat, claim, 0)
    if claim < 0:
        awarded = 0
        missed = pts
    elif claim <= pts:
        awarded = claim
        missed = pts - claim
    else:
        awarded = 0
        missed = pts
        log_over(g, seat, claim, pts, R_PLAY)
        over_claim(g, r, seat, claim)
    if awarded and not g.over:
        log_why(g, seat, R_PLAY)
        award(g, r, r.side[seat], awarded, 1, down)
    open_window(g, r, seat, missed, claim)


cdef int hand_pips(Game* g, Rules* r, int seat) noexcept nogil:
    cdef uint64_t m = g.hand[seat]
    cdef int t, p = 0
    while m:
        t = lowbit(m)
        m &= m - 1
        p += r.hi[t] if (r.double_once and r.hi[t] == r.lo[t]) else r.hi[t] + r.lo[t]
    return p


cdef void sample_tiles(Game* g, Rules* r, int k, int* tiles) noexcept nogil:
    """``k`` distinct tiles at random (a partial Fisher-Yates over the set)."""
    cdef int perm[MAXTILES]
    cdef int i, j, tmp
    if g.feed != NULL:  # external lots (deal_hand)
        for i in range(k):
            tiles[i] = g.feed[g.nfeed]
            g.nfeed += 1
        return
    for i in range(r.ntiles):
        perm[i] = i
    for i in range(k):
        j = i + below(g, r.ntiles - i)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
        tiles[i] = perm[i]


cdef int lot_best(Rules* r, int k, int* tiles, int* who, int lightest) noexcept nogil:
    """The seats (a mask) of ``who`` whose tile of ``tiles`` (``k`` each) wins a round of lots: the heaviest
    (``lightest``: the lightest), a tie broken by the higher end under ``lot_tie=high_end``."""
    cdef int keys[4]
    cdef int i, t, best, tied = 0
    for i in range(k):
        t = tiles[i]
        keys[i] = (r.hi[t] + r.lo[t]) * 64 + (r.hi[t] if r.lot_high_end else 0)
    best = keys[0]
    for i in range(1, k):
        if (keys[i] < best) if lightest else (keys[i] > best):
            best = keys[i]
    for i in range(k):
        if keys[i] == best:
            tied |= 1 << who[i]
    return tied


cdef int lot(Game* g, Rules* r, int seats, int lightest) noexcept nogil:
    """Each of the seats of mask ``seats`` draws a tile; the heaviest (lightest) leads; ties draw again."""
    cdef int tiles[4]
    cdef int who[4]
    cdef int k, s, tied
    while True:
        k = 0
        for s in range(r.n):
            if seats >> s & 1:
                who[k] = s
                k += 1
        sample_tiles(g, r, k, tiles)
        log_lot(g, seats, k, tiles)
        tied = lot_best(r, k, tiles, who, lightest)
        if popcount64(<uint64_t>tied) == 1:
            return lowbit(<uint64_t>tied)
        seats = tied


cdef int hand_lot(Game* g, Rules* r, int hand_no, int* leader, int* lightest) noexcept nogil:
    """The seats (a mask) that draw lots for the leader of hand ``hand_no``, 0 when ``leader`` is set or the
    highest double leads (``leader`` -1); ``lightest``: the lightest tile wins the lot."""
    cdef int n = r.n, lot_seats = 0, s, low
    leader[0] = -1
    lightest[0] = 0
    if hand_no == 1:
        if r.first_lead == FL_LOT_HEAVIEST or r.first_lead == FL_LOT_LIGHTEST or r.first_lead == FL_MUST_SET:
            lot_seats = (1 << n) - 1
            lightest[0] = r.first_lead == FL_LOT_LIGHTEST
    elif r.next_lead == NL_WINNER_ELSE_LOT:
        if g.last_out >= 0:
            leader[0] = g.last_out
        else:
            lot_seats = (1 << n) - 1
            lightest[0] = r.first_lead == FL_LOT_LIGHTEST
    elif r.next_lead == NL_ROTATE:
        leader[0] = (g.leader + 1) % n
    else:
        low = g.scores[0]
        for s in range(1, r.nsides):
            if g.scores[s] < low:
                low = g.scores[s]
        for s in range(n):
            if g.scores[r.side[s]] == low:
                lot_seats |= 1 << s
        if popcount64(<uint64_t>lot_seats) == 1:
            leader[0] = lowbit(<uint64_t>lot_seats)
            lot_seats = 0
    return lot_seats


cdef void start_hand(Game* g, Rules* r) noexcept nogil:
    """A new hand (``DominoState._start_hand``): its leader, a native deal (with ``ext_deal``, the lots and
    deal :meth:`NativeDominoes.deal_hand` gives: until then the hand waits, ``need_deal`` set)."""
    cdef int n = r.n, leader = -1, lot_seats = 0, lightest = 0, s, i, t, best
    cdef int tiles[MAXTILES]
    if g.ext_deal and g.feed == NULL:
        g.need_deal = 1
        return
    g.need_deal = 0
    g.hand_no += 1
    lot_seats = hand_lot(g, r, g.hand_no, &leader, &lightest)
    if lot_seats:
        leader = lot(g, r, lot_seats, lightest)
    if g.feed != NULL:  # the external deal (deal_hand)
        for i in range(r.ntiles):
            tiles[i] = g.feed[g.nfeed + i]
        g.nfeed += r.ntiles
    else:
        for i in range(r.ntiles):
            tiles[i] = i
        shuffle_ints(tiles, r.ntiles, &g.rng)
    for s in range(n):
        g.hand[s] = 0
        for i in range(r.each):
            g.hand[s] |= (<uint64_t>1) << tiles[s * r.each + i]
    g.nbone = 0
    for i in range(n * r.each, r.ntiles):
        g.bone[g.nbone] = tiles[i]
        g.nbone += 1
    if leader < 0:  # the highest double leads; with no double, the heaviest tile
        best = -1
        for s in range(n):
            for t in range(r.ntiles):
                if g.hand[s] >> t & 1 and r.hi[t] == r.lo[t] and r.hi[t] > best:
                    best = r.hi[t]
                    leader = s
        if best < 0:
            best = -1
            for s in range(n):
                for t in range(r.ntiles):
                    if g.hand[s] >> t & 1 and (r.hi[t] + r.lo[t]) * 64 + r.hi[t] > best:
                        best = (r.hi[t] + r.lo[t]) * 64 + r.hi[t]
                        leader = s
    g.leader = leader
    g.turn = leader
    g.lead_phase = 1
    g.draws = 0
    g.dead_passes = 0
    g.last_out = -1
    g.nnodes = 0
    g.nplaces = 0
    g.spinner = -1
    g.count = 0
    g.knock = KN_NONE
    log_deal(g, r, tiles)


cdef void after_hand(Game* g, Rules* r) noexcept nogil:
    cdef int s, top, leaders, nlead
    if g.over:
        return
    if r.end_of_hand:
        if g.tiebreak_left > 0:
            g.tiebreak_left -= 1
        if g.tiebreak_left == 0:
            top = g.scores[0]
            for s in range(1, r.nsides):
                if g.scores[s] > top:
                    top = g.scores[s]
            if top >= r.target:
                leaders = 0
                nlead = 0
                for s in range(r.nsides):
                    if g.scores[s] == top:
                        leaders |= 1 << s
                        nlead += 1
                if nlead == 1 or not r.tie_break:
                    finish(g, leaders)
                    return
                g.tiebreak_left = r.n
                log_tie(g, r.n)
    start_hand(g, r)


cdef void end_by_domino(Game* g, Rules* r, int seat, int pts, int claim, int lead) noexcept nogil:
    """Going out (``DominoState._end_by_domino``): the play, the out bonus (to be claimed late with
    ``mug_bonus``), one window on what is unclaimed."""
    cdef int play_points, missed, s, n = r.n, unit = r.round_to, bonus = 0, x, step, t, ob, mug
    cdef int side = r.side[seat]
    cdef int p[4]
    cdef uint64_t m
    if r.manual:
        log_claim(g, seat, claim, 0)
        if claim < 0:
            play_points = 0
            missed = pts
        elif claim <= pts:
            play_points = claim
            missed = pts - claim
        else:
            play_points = 0
            missed = pts
            log_over(g, seat, claim, pts, R_PLAY)
            over_claim(g, r, seat, claim)
    else:
        play_points = pts
        missed = 0
    if g.over:
        log_missed(g, seat, missed, R_PLAY)
        return
    g.last_out = seat
    log_hand_end(g, seat, 0)
    for s in range(n):
        p[s] = hand_pips(g, r, s)
    ob = r.out_bonus
    if ob == OB_PER_OPP or ob == OB_PER5:
        for s in range(n):
            if r.side[s] != side:
                bonus += round_nearest(p[s], unit)
        if ob == OB_PER5:
            bonus //= unit
    elif ob == OB_TOTAL or ob == OB_RAW:
        for s in range(n):
            if r.side[s] != side:
                bonus += p[s]
        if ob == OB_TOTAL:
            bonus = round_nearest(bonus, unit)
    elif ob == OB_LARGEST:
        x = 0
        for s in range(n):
            if r.side[s] != side and p[s] > x:
                x = p[s]
        bonus = round_nearest(x, unit) // unit
    elif ob == OB_CHIP:
        bonus = 1
    elif ob == OB_PRIME:
        x = 0
        for s in range(n):
            if r.side[s] != side:
                m = g.hand[s]
                while m:
                    t = lowbit(m)
                    m &= m - 1
                    if r.hi[t] + r.lo[t] > x:
                        x = r.hi[t] + r.lo[t]
        bonus = prime_at_most(x)
    if r.partner_pips:
        x = hand_pips(g, r, (seat + 2) % n)
        bonus -= x if r.round_mode == RM_NONE else round_nearest(x, unit)
    mug = r.mug_bonus and bonus > 0  # the bonus is claimed (late) like missed points, or mugged
    step = play_points + (0 if mug else bonus)
    log_void_step(g, r, seat, step)
    if not (step > 0 and r.exact_target and g.scores[side] + step > r.target):
        if play_points:
            log_why(g, seat, R_PLAY)
            award(g, r, side, play_points, 0, lead)
        if bonus and not mug:
            log_why(g, seat, R_DOMINO)
            award(g, r, side, bonus, 0, 0)
        check_win(g, r, side)
    if ob == OB_SUBTRACT:
        for s in range(n):
            if p[s] and not g.over:
                log_why(g, -1, R_OWN)
                award(g, r, r.side[s], -round_nearest(p[s], unit), 1, 0)
    if r.manual:
        if mug and not g.over:
            open_window(g, r, seat, missed + bonus, claim)
            log_window(g, R_DOMINO)
            g.w_may = 1
            g.w_late = missed + bonus
        else:
            open_window(g, r, seat, missed + (bonus if mug else 0), claim)
    after_hand(g, r)


cdef int take(Rules* r, int* p, int s, int against, int difference) noexcept nogil:
    """What the lightest seat ``s`` takes from the seats of mask ``against`` (``_end_blocked.take``)."""
    cdef int o, v = 0, unit = r.round_to
    if r.round_mode == RM_PER_HAND:
        for o in range(r.n):
            if against >> o & 1:
                v += round_nearest(p[o], unit)
        if difference:
            v -= round_nearest(p[s], unit)
    else:
        for o in range(r.n):
            if against >> o & 1:
                v += p[o]
        if difference:
            v -= p[s]
        if r.round_mode == RM_NET:
            v = round_nearest(v, unit)
    if v < 0:
        v = 0
    return v // (unit if r.per_unit else 1)


cdef inline int opponents(Rules* r, int seat) noexcept nogil:
    """The seats (a bit each) of the sides other than ``seat``'s."""
    cdef int o, m = 0
    for o in range(r.n):
        if r.side[o] != r.side[seat]:
            m |= 1 << o
    return m


cdef inline int one_side(Rules* r, int seats) noexcept nogil:
    """Whether the seats of mask ``seats`` are all partners."""
    cdef int o, sd = -1
    for o in range(r.n):
        if seats >> o & 1:
            if sd >= 0 and r.side[o] != sd:
                return 0
            sd = r.side[o]
    return 1


cdef void end_blocked(Game* g, Rules* r) noexcept nogil:
    cdef int s, o, n = r.n, low, lightest = 0, nlight = 0, heavier = 0, first = -1, share, i, j, tmp
    cdef int p[4]
    cdef int order[4]
    cdef int diff = r.blocked == BL_DIFF
    cdef int div = r.round_to if r.per_unit else 1
    g.last_out = -1
    log_hand_end(g, -1, 1)
    for s in range(n):
        p[s] = hand_pips(g, r, s)
    low = p[0]
    for s in range(1, n):
        if p[s] < low:
            low = p[s]
    for s in range(n):
        if p[s] == low:
            lightest |= 1 << s
            nlight += 1
            if first < 0:
                first = s
        else:
            heavier |= 1 << s
    if r.blocked == BL_OPP or r.blocked == BL_DIFF:
        if nlight == 1 or (r.blocked_tie == BT_NOBODY and one_side(r, lightest)):
            log_why(g, first, R_BLOCKED)
            award(g, r, r.side[first], take(r, p, first, opponents(r, first), diff), 1, 0)
        elif r.blocked_tie == BT_SPLIT:
            share = take(r, p, first, heavier, diff) // nlight
            for s in range(n):
                if lightest >> s & 1 and not g.over:
                    log_why(g, s, R_BLOCKED)
                    award(g, r, r.side[s], share, 1, 0)
        elif r.blocked_tie == BT_ALL:
            for s in range(n):
                if lightest >> s & 1 and not g.over:
                    log_why(g, s, R_BLOCKED)
                    award(g, r, r.side[s], take(r, p, s, heavier, diff), 1, 0)
    elif r.blocked == BL_CASCADE:
        for s in range(n):
            order[s] = s
        for i in range(1, n):  # a stable insertion sort by pips, as Python's sorted
            j = i
            while j > 0 and p[order[j - 1]] > p[order[j]]:
                tmp = order[j - 1]
                order[j - 1] = order[j]
                order[j] = tmp
                j -= 1
        for i in range(n):
            s = order[i]
            for j in range(n):
                o = order[j]
                if p[o] > p[s] and r.side[o] != r.side[s] and not g.over:
                    log_why(g, s, R_BLOCKED)
                    award(g, r, r.side[s], (p[o] - p[s]) // div, 1, 0)
    elif r.blocked == BL_SUBTRACT:
        for s in range(n):
            if p[s] and not g.over:
                log_why(g, s, R_OWN)
                award(g, r, r.side[s], -round_nearest(p[s], r.round_to), 1, 0)
    after_hand(g, r)


# ------------------------------------------------------------------------------------------- moves ----
cdef void do_play(Game* g, Rules* r, int seat, int t, int k, int claim) noexcept nogil:
    g.hand[seat] &= ~((<uint64_t>1) << t)
    cdef int lead = k < 0
    place(g, r, t, k)
    log_play(g, seat, t, k)
    cdef int pts = r.table[g.count]
    if lead:
        g.lead_phase = 0
    g.draws = 0
    g.dead_passes = 0
    if not g.hand[seat]:
        end_by_domino(g, r, seat, pts, claim, lead)
        return
    score_step(g, r, seat, pts, claim, lead)
    if g.over:
        return
    g.turn = turn_after_play(g, r, seat, t, pts)


cdef inline int turn_after_play(Game* g, Rules* r, int seat, int t, int pts) noexcept nogil:
    """Who moves after ``seat`` played ``t`` for ``pts`` (``DominoState._do_play``): a play ends a knock;
    under ``extra_turn`` a double or a scoring play keeps the turn while the player can play on."""
    if g.knock != KN_NONE:
        g.knock = KN_NONE
    elif r.extra and (r.hi[t] == r.lo[t] or pts > 0) and has_play(g, r, seat):
        return seat
    return (seat + 1) % r.n


cdef void do_draw(Game* g, Rules* r, int seat, int pick) noexcept nogil:
    """Draw from the boneyard: its last tile (``pick`` 0, as the pure engine) or one at random."""
    cdef int i = g.nbone - 1, t
    if pick:
        i = below(g, g.nbone)
    t = g.bone[i]
    if g.ev_on:
        log_draw(g, seat, t, not (r.voluntary and not g.lead_phase and has_play(g, r, seat)))
    g.bone[i] = g.bone[g.nbone - 1]
    g.nbone -= 1
    g.hand[seat] |= (<uint64_t>1) << t
    g.draws += 1


cdef void do_pass(Game* g, Rules* r, int seat) noexcept nogil:
    cdef int dead = g.nbone <= r.reserve or (r.draw_limit == 0 and not (g.lead_phase and r.must_set))
    log_pass(g, seat)
    g.draws = 0
    if g.knock != KN_NONE and g.knocker == seat:
        g.knock = KN_NONE
    if dead:
        g.dead_passes += 1
        if g.dead_passes >= r.n:  # every hand holds tiles until one goes out
            end_blocked(g, r)
            return
    else:
        g.dead_passes = 0
    g.turn = (seat + 1) % r.n


cdef void apply_regular(Game* g, Rules* r, int seat, int move, int claim, int pick) noexcept nogil:
    """Close any open window (every move does), then make ``move`` (a legal one) with ``claim``."""
    log_close(g)
    g.w_open = 0
    cdef int draw = r.ntiles * r.slots
    if move < draw:
        do_play(g, r, seat, move // r.slots, move % r.slots - 1, claim)
    elif move == draw:
        do_draw(g, r, seat, pick)
    elif move == draw + 1:
        do_pass(g, r, seat)
    else:
        do_knock(g, r, seat)


cdef void do_knock(Game* g, Rules* r, int seat) noexcept nogil:
    """A knock (``DominoState._do_knock``): the partner must make a scoring play or knock back, which
    hands the turn back to the knocker."""
    log_knock(g, seat, g.knock != KN_NONE)
    if g.knock == KN_NONE:
        g.knock = KN_PARTNER
        g.knocker = seat
        g.turn = (seat + 2) % r.n
    else:
        g.knock = KN_FORCED
        g.turn = g.knocker


cdef void call_muggins(Game* g, Rules* r, int seat, int amount) noexcept nogil:
    """A muggins call naming ``amount`` points (-1: names none) on the open window (``GameState._call``
    with ``resolve_call``)."""
    cdef int missed = g.w_missed, scorer = g.w_scorer, gain
    g.w_open = 0
    if missed <= 0 or amount == 0:
        log_muggins(g, seat, OC_FALSE, 0, amount)
        if r.false_call == FC_DEDUCT:
            log_why(g, seat, R_FALSE)
            award(g, r, r.side[seat], -r.false_call_points, 1, 0)
        elif r.false_call == FC_AWARD and not g.over:
            log_why(g, scorer, R_FALSE)
            award(g, r, r.side[scorer], min(amount if amount > 0 else r.false_call_points,
                                            r.false_call_cap[g.w_reason]), 1, 0)
        return
    gain = missed if amount < 0 else min(amount, missed)
    log_muggins(g, seat, r.muggins_rule, 0 if r.muggins_rule == MO_FORFEIT else gain, amount)
    if r.muggins_rule == MO_FORFEIT:
        return
    if r.muggins_rule == MO_STEAL_DEDUCT:
        log_why(g, scorer, R_MUGGED)
        award(g, r, r.side[scorer], -gain, 1, 0)
    if not g.over:
        log_why(g, seat, R_MUGGINS)
        award(g, r, r.side[seat], gain, 1, 0)
    log_missed(g, scorer, missed - gain, g.w_reason)


cdef void late_claim(Game* g, Rules* r, int seat, int amount) noexcept nogil:
    """The scorer of the open window claims ``amount`` points late (``GameState._late_claim``)."""
    cdef int may = min(g.w_missed, g.w_late) if g.w_may else 0
    g.w_may = 0
    g.w_late = 0
    g.w_claimed = amount + 1
    log_claim(g, seat, amount, 1)
    if amount <= may:
        g.w_missed -= amount
        log_why(g, seat, g.w_reason)
        award(g, r, r.side[seat], amount, 1, 0)
    else:
        log_over(g, seat, amount, may, g.w_reason)
        over_claim(g, r, seat, amount)


cdef inline void keep_best(Game* g, int i, int v, int* best, int* ties, int* pick) noexcept nogil:
    """Candidate ``i`` of value ``v``: kept when it beats ``best`` (or is the first), else by chance among the
    ``ties`` equals so far (reservoir sampling: each equally likely)."""
    if ties[0] == 0 or v > best[0]:
        best[0] = v
        ties[0] = 1
        pick[0] = i
    elif v == best[0]:
        ties[0] += 1
        if below(g, ties[0]) == 0:
            pick[0] = i


cdef int greedy_pick(Game* g, Rules* r, int* moves, int nm) noexcept nogil:
    """The highest-scoring play of ``moves`` (ties broken at random); draw or pass when that is all."""
    cdef int i, best = 0, ties = 0, pick = 0, draw = r.ntiles * r.slots
    for i in range(nm):
        if moves[i] >= draw:
            if ties == 0:  # a draw or pass offered beside plays (voluntary draw) is no scoring play
                return i
            continue
        keep_best(g, i, move_points(g, r, moves[i]), &best, &ties, &pick)
    return pick


cdef inline void apply_true(Game* g, Rules* r, int seat, int mv) noexcept nogil:
    """Make regular move ``mv`` claiming its true points (``with_true_claim``: no claim for none)."""
    cdef int claim = -1, pts
    if r.manual and mv < r.ntiles * r.slots:
        pts = move_points(g, r, mv)
        if pts > 0:
            claim = pts
    apply_regular(g, r, seat, mv, claim, 0)


cdef int defensive_pick(Game* g, Rules* r, int seat, int* moves, int nm) noexcept nogil:
    """The play of ``moves`` that scores most less the next seat's best scoring reply (a play that ends the
    hand fears no reply), then the heaviest shed (pips, a double's the set's top number again: the greedy
    tie-break), then chance; draw or pass when that is all."""
    cdef Game c
    cdef int replies[MAXMOVES]
    cdef int i, j, t, pts, reply, nr, best = 0, ties = 0, pick = 0, draw = r.ntiles * r.slots
    for i in range(nm):
        if moves[i] >= draw:
            continue
        t = moves[i] // r.slots
        pts = move_points(g, r, moves[i])
        c = g[0]
        apply_true(&c, r, seat, moves[i])
        reply = -ENDS_HAND
        if not c.over and c.hand_no == g.hand_no:
            reply = 0
            nr = regular(&c, r, c.turn, replies)
            for j in range(nr):
                if replies[j] < draw:
                    reply = max(reply, move_points(&c, r, replies[j]))
        keep_best(g, i, (pts - reply) * 64 + r.hi[t] + r.lo[t] + (r.top if r.hi[t] == r.lo[t] else 0), &best,
                  &ties, &pick)
    return pick


cdef int run_playout(Game* g, Rules* r, int policy, long max_moves, int until_hand_end=0,
                     double greedy=1.0, int defender=-1) noexcept nogil:
    """Play until the game ends or ``max_moves`` (or, with ``until_hand_end``, the current hand ends):
    random (0), greedy (1) or mixed (2: greedy with probability ``greedy``, else random, as the search
    bot's rollouts; the seat ``defender``'s greedy moves then ``defensive_pick``'s) moves, true claims, no
    calls. The mixed policy draws the boneyard's last tile, as the pure
    engine does: a rollout from a sampled world then sees that world's draws, as the pure rollout would."""
    cdef int moves[MAXMOVES]
    cdef int nm, i, mv, seat, claim, draw = r.ntiles * r.slots, hand = g.hand_no
    cdef long made = 0
    while not g.over and made < max_moves:
        if until_hand_end and g.hand_no != hand:
            break
        seat = g.turn
        nm = regular(g, r, seat, moves)
        if nm == 1:
            i = 0
        elif policy == 1 or (policy == 2 and splitmix_unit(&g.rng) < greedy):
            i = defensive_pick(g, r, seat, moves, nm) if seat == defender else greedy_pick(g, r, moves, nm)
        else:
            i = below(g, nm)
        mv = moves[i]
        claim = -1
        if r.manual and mv < draw:
            claim = move_points(g, r, mv)
        apply_regular(g, r, seat, mv, claim, policy != 2)
        made += 1
    return <int>made


# ------------------------------------------------------------------------------------------ Python ----
_OPTIONS: dict[str, dict[str, int]] = {
    "first_lead": {"lot_heaviest": FL_LOT_HEAVIEST, "lot_lightest": FL_LOT_LIGHTEST,
                   "highest_double": FL_HIGHEST_DOUBLE, "must_set_double": FL_MUST_SET},
    "next_lead": {"winner_else_lot": NL_WINNER_ELSE_LOT, "rotate_left": NL_ROTATE, "alternate": NL_ROTATE,
                  "lowest_score": NL_LOWEST},
    "spinner": {"none": 0, "first_double": 1, "all_doubles": 2},
    "draw": {"until_playable": 1 << 30, "none": 0},
    "out_bonus": {"per_opponent_round5": OB_PER_OPP, "total_round5": OB_TOTAL, "raw": OB_RAW, "per5": OB_PER5,
                  "largest_hand_per5": OB_LARGEST, "subtract_own": OB_SUBTRACT, "chip_out_1": OB_CHIP,
                  "heaviest_tile_prime": OB_PRIME, "none": OB_NONE},
    "blocked": {"lightest_takes_opponents": BL_OPP, "lightest_takes_difference": BL_DIFF,
                "cascade": BL_CASCADE, "no_winner": BL_NONE, "none": BL_NONE, "subtract_own": BL_SUBTRACT},
    "round_mode": {"per_hand": RM_PER_HAND, "net": RM_NET, "none": RM_NONE},
    "blocked_tie": {"nobody": BT_NOBODY, "split": BT_SPLIT, "all_tied_score": BT_ALL},
    "muggins": {"steal": MO_STEAL, "forfeit": MO_FORFEIT, "steal_and_deduct": MO_STEAL_DEDUCT},
    "false_call_penalty": {"none": FC_NONE, "deduct": FC_DEDUCT, "award": FC_AWARD},
    "lead_must_be": {"any": 0, "double": 1, "double_or_scoring": 2},
    "extra_turn": {"none": 0, "double_or_scoring": 1},
}
# options that must keep one value (the reference engine's other values are not mirrored yet): none now
_FIXED: dict[str, object] = {}


def unsupported(rules: object, num_players: int) -> str | None:
    """Why the native engine cannot play ``rules`` with ``num_players`` (None: it can). The scope: every
    preset with 2-4 players (partnerships with 4 where the rules have them), a double-6 or double-9 set
    (a hand is one 64-bit mask), spinner none, first_double or all_doubles, draw until_playable or none,
    the first lead by lot, highest double or a set double; every lead restriction, extra turn, knocking,
    voluntary draw, spinner filled first, muggable bonus, score function, out bonus, blocked rule, target
    rule, claim mode and muggins option. Not: the sniff spinners, a forced highest-double lead, draw
    limits other than none or until playable, partners who both go out (``partnership_both_out`` with
    partnerships)."""
    if not 2 <= num_players <= 4:
        return f"{num_players} players (the native engine plays 2 to 4)"
    if getattr(rules, "partnerships") and num_players == 4 and getattr(rules, "partnership_both_out"):
        return "partnership_both_out=True with partnerships"
    if getattr(rules, "tile_set") not in (6, 9):
        return f"tile_set={getattr(rules, 'tile_set')} (the native engine plays double-6 and double-9)"
    for name, values in _OPTIONS.items():
        v = getattr(rules, name)
        if v not in values:
            return f"{name}={v!r}"
    for name, v in _FIXED.items():
        if getattr(rules, name) != v:
            return f"{name}={getattr(rules, name)!r}"
    return None


_NOBODY: frozenset[int] = frozenset()
_SEATS = tuple(frozenset((s,)) for s in range(4))


cdef class _RulesBox:
    """The C rules of one rules object and player count (``rules_box``)."""


cdef dict _RULES_CACHE = {}


cdef _RulesBox rules_box(object rules, int n):
    """The C rules of ``rules`` for ``n`` players, made once per rules object and player count."""
    key = (id(rules), n)
    hit = _RULES_CACHE.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    why = unsupported(rules, n)
    if why is not None:
        raise NotImplementedError(f"the native engine does not play {why}")
    from muggins.dominoes.scoring import per_unit, score_table
    from muggins.dominoes.tiles import full_set

    cdef _RulesBox box = _RulesBox()
    cdef Rules* r = &box.r
    tiles = full_set(rules.tile_set)
    r.n = n
    r.top = rules.tile_set
    r.ntiles = len(tiles)
    r.each = rules.tiles_each(n)
    if r.each * n > r.ntiles:
        raise NotImplementedError(f"{n} players with {r.each} tiles each need more than the set")
    r.manual = rules.claims == "manual"
    r.lenient = rules.claim_timing == "lenient"
    r.spins = _OPTIONS["spinner"][rules.spinner]
    r.sides_first = bool(rules.spinner_sides_first)
    r.sniff_ends = rules.spinner_count == "sniff_ends"
    r.draw_limit = _OPTIONS["draw"][rules.draw]
    r.reserve = rules.boneyard_reserve
    r.first_lead = _OPTIONS["first_lead"][rules.first_lead]
    r.lot_high_end = rules.lot_tie == "high_end"
    r.next_lead = _OPTIONS["next_lead"][rules.next_lead]
    r.out_bonus = _OPTIONS["out_bonus"][rules.out_bonus]
    r.blocked = _OPTIONS["blocked"][rules.blocked]
    r.round_mode = _OPTIONS["round_mode"][rules.round_mode]
    r.round_to = rules.round_to
    r.blocked_tie = _OPTIONS["blocked_tie"][rules.blocked_tie]
    r.per_unit = per_unit(rules.score_fn)
    r.double_once = bool(rules.hand_double_counts_once)
    r.target = rules.target
    r.exact_target = bool(rules.exact_target)
    r.no_win_on_down = bool(rules.no_win_on_down)
    r.end_of_hand = rules.win_check == "end_of_hand"
    r.entry = rules.entry_threshold
    r.tie_break = bool(rules.tie_break_hands)
    r.muggins_rule = _OPTIONS["muggins"][rules.muggins]
    r.over_claim_penalty = rules.over_claim == "opponent_scores"
    r.false_call = _OPTIONS["false_call_penalty"][rules.false_call_penalty]
    r.false_call_points = rules.false_call_points
    r.false_call_cap[R_PLAY] = rules.max_points_of("play")
    r.false_call_cap[R_DOMINO] = rules.max_points_of("domino")
    r.B = int(rules.max_step_points)
    r.all_doubles = rules.spinner == "all_doubles"
    r.fill_first = bool(rules.spinner_fill_first)
    r.extra = rules.extra_turn == "double_or_scoring"
    r.voluntary = bool(rules.voluntary_draw)
    r.teams = bool(rules.partnerships) and n == 4
    r.nsides = 2 if r.teams else n
    for s in range(4):
        r.side[s] = s % 2 if r.teams else s
    r.knocking = bool(rules.knocking) and r.teams
    r.must_set = rules.first_lead == "must_set_double"
    r.lead_draw = r.must_set or (rules.lead_must_be == "double" and rules.draw != "none")
    r.partner_pips = bool(rules.partner_pips_deducted) and r.teams
    r.mug_bonus = r.manual and bool(rules.mug_bonus)
    places = (2 * r.top + 4 if r.all_doubles else 4) if r.spins else 2
    r.slots = 1 + places
    r.width = r.B + 2 if r.manual else 1
    r.play_stop = r.ntiles * r.slots * r.width
    r.mug_start = r.play_stop + 3
    r.claim_start = r.mug_start + r.B + 2
    r.size = r.claim_start + r.B + 1 if r.manual else r.play_stop + 3
    table = score_table(rules.score_fn)
    for i in range(TABLE):
        r.table[i] = table[i]
    for v in range(16):
        r.by_value[v] = 0
    r.lead_ok = 0
    for t in tiles:
        r.hi[t.index] = t.hi
        r.lo[t.index] = t.lo
        r.by_value[t.hi] |= (<uint64_t>1) << t.index
        r.by_value[t.lo] |= (<uint64_t>1) << t.index
        if (rules.lead_must_be == "any" or t.double
                or (rules.lead_must_be == "double_or_scoring" and table[t.hi + t.lo] > 0)):
            r.lead_ok |= (<uint64_t>1) << t.index
    if len(_RULES_CACHE) > 64:
        _RULES_CACHE.clear()
    _RULES_CACHE[key] = (rules, box)
    return box


# ------------------------------------------------------------------------------- protocol objects ----
# The protocol's Actions are immutable: each is made once per tile set (or amount) and shared by every game,
# so ``legal_actions`` only picks them out and ``apply`` knows an offered one by its identity.
_MOVES = (Action("draw"), Action("pass"), Action("knock"))  # DRAW, PASS, KNOCK: the moves after the plays
cdef dict _ACTS = {}    # tile set -> the play Actions by key (``play_key``), made when first offered
cdef dict _TEXTS = {}   # tile set -> (the tiles in index order, their texts)
cdef dict _CLAIMS = {}  # amount -> the late claim of it


cdef tuple tiles_of(int top):
    """The tiles of a double-``top`` set in index order, and their texts."""
    got = _TEXTS.get(top)
    if got is None:
        tiles = full_set(top)
        got = _TEXTS[top] = (tiles, [t.text for t in tiles])
    return got


cdef list actions_of(int top, int ntiles):
    got = _ACTS.get(top)
    if got is None:
        got = _ACTS[top] = [None] * (ntiles * (ntiles + 1) * 2)
    return got


cdef int below_bits(object getrandbits, int n):
    """``random.Random._randbelow(n)``: ``getrandbits`` of ``n``'s bit length until one is below ``n``."""
    cdef int bits = 0, x
    while (n >> bits) > 0:
        bits += 1
    x = getrandbits(bits)
    while x >= n:
        x = getrandbits(bits)
    return x


cdef list sample_of(object rng, int n, int k):
    """``rng.sample(range(n), k)``: for a ``random.Random`` and a set of more than 21 tiles, its draws made
    here as ``random.Random.sample`` makes them (a pick again while taken); else by ``rng.sample``."""
    cdef int i, j
    if type(rng) is not _random.Random or k > 5 or n <= 21:
        return rng.sample(range(n), k)
    getrandbits = rng.getrandbits
    out: list = []
    for i in range(k):
        j = below_bits(getrandbits, n)
        while j in out:
            j = below_bits(getrandbits, n)
        out.append(j)
    return out


def _drawn_lot(list seats, int top, int ntiles, list got, object rng) -> dict:
    """A round of lots as :func:`muggins.dominoes.deals.draw_lot` draws it (a tile for each of ``seats``,
    ``rng.sample`` of the set): its outcome; the tile indices go to ``got``."""
    picked = sample_of(rng, ntiles, len(seats))
    got.extend(picked)
    texts = tiles_of(top)[1]
    return {"seats": list(seats), "tiles": [texts[t] for t in picked]}


cdef inline int play_key(int ntiles, int t, int on, int end) noexcept nogil:
    """Where the play of tile ``t`` on layout tile ``on`` (-1: the lead) at its ``end`` (a spinner's side)
    is kept in the shared list of play Actions."""
    return (t * (ntiles + 1) + on + 1) * 2 + end


cdef inline int bit_slot(int bit) noexcept nogil:
    """A free place's slot bit (1, 2, 4, 8) as 0 to 3."""
    return 0 if bit == 1 else 1 if bit == 2 else 2 if bit == 4 else 3


cdef inline int record_length(int* ev, int i, int ntiles) noexcept nogil:
    """The ints of the log record at ``i`` (the EV_ codes above)."""
    cdef int code = ev[i]
    if code == EV_LOT:
        return 3 + ev[i + 2]
    if code == EV_DEAL:
        return 4 + ntiles
    if code == EV_PASS or code == EV_TIE:
        return 2
    if code == EV_ACT or code == EV_HAND_END or code == EV_KNOCK:
        return 3
    if code == EV_DRAW or code == EV_CLAIM or code == EV_MISSED:
        return 4
    if code == EV_PLAY or code == EV_OVER or code == EV_SCORE:
        return 5
    if code == EV_VOID or code == EV_END:
        return 6
    return 7  # EV_MUGGINS


cdef uint64_t mix_seed(object seed):
    """A 64-bit PRNG state from any Python integer."""
    return <uint64_t>((int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF)


cdef class NativeDominoes:
    """One domino game in C data. Integers only: seats, action ids (docs/actions.md), scores."""

    def __dealloc__(self) -> None:
        free(self.g.ev)

    def __init__(self) -> None:
        raise TypeError("make a native game with NativeDominoes.new(rules, players, seed) or "
                        "NativeDominoes.from_state(state)")

    @staticmethod
    def new(rules: object, num_players: int, seed: int = 0, log: bool = False,
            external: bool = False) -> NativeDominoes:
        """A new game dealt natively (NotImplementedError for rules out of scope); ``log``: keep the event
        log (:meth:`events`) from the first deal on; ``external``: every hand's lots and deal come from
        :meth:`deal_hand` (the first hand waits for them now, :attr:`needs_deal`)."""
        cdef NativeDominoes s = NativeDominoes.__new__(NativeDominoes)
        s.box = rules_box(rules, num_players)
        s.rules = rules
        cdef Rules* r = &s.box.r
        s.g.rng = mix_seed(seed)
        s.g.ev_on = bool(log)
        for side in range(4):
            s.g.scores[side] = 0
            s.g.entered[side] = r.entry == 0
            s.g.hand[side] = 0
        s.g.hand_no = 0
        s.g.leader = -1
        s.g.last_out = -1
        s.g.tiebreak_left = 0
        s.g.over = 0
        s.g.winners = 0
        s.g.w_open = 0
        s.g.knock = KN_NONE
        s.g.ext_deal = bool(external)
        if log:
            s.ord_on = 1
            s.acts = actions_of(r.top, r.ntiles)
        start_hand(&s.g, r)
        if s.ord_on:
            s._order(-1, 0, 0, -1)
        return s

    @staticmethod
    def from_state(state: object, seed: int = 0, log: bool = False, external: bool = False) -> NativeDominoes:
        """The game of a pure :class:`~muggins.dominoes.state.DominoState` at any point, hidden tiles and
        all (for sampled worlds); ``seed`` starts the native PRNG; ``log``: keep the event log of what
        follows (:meth:`events`); ``external``: the next hands' lots and deals come from :meth:`deal_hand`.
        NotImplementedError names an option out of scope."""
        n = state.num_players
        cdef NativeDominoes s = NativeDominoes.__new__(NativeDominoes)
        s.box = rules_box(state.rules, n)
        s.rules = state.rules
        cdef Rules* r = &s.box.r
        cdef Game* g = &s.g
        if state._forced_lead is not None:
            raise NotImplementedError("the native engine does not play a forced lead")
        g.rng = mix_seed(seed)
        for side in range(4):
            g.hand[side] = 0
            g.scores[side] = 0
            g.entered[side] = 0
        for seat in range(n):
            m = 0
            for t in state.hands[seat]:
                m |= 1 << t.index
            g.hand[seat] = m
        scores = state._scores
        for side in range(len(scores)):
            g.scores[side] = scores[side]
            g.entered[side] = bool(state._entered[side])
        bone = state.boneyard
        g.nbone = len(bone)
        for i in range(g.nbone):
            g.bone[i] = bone[i].index
        g.turn = state.turn
        g.lead_phase = state.phase == "lead"
        g.count = state.count
        g.hand_no = state.hand_no
        g.leader = state._leader
        g.last_out = state._last_out
        g.draws = state._draws
        g.dead_passes = state._dead_passes
        g.tiebreak_left = state._tiebreak_left
        g.over = bool(state._over)
        g.winners = 0
        for seat in state._winners:
            g.winners |= 1 << state._side[seat]
        linfo = state._linfo
        lmask = state._lmask
        g.nnodes = len(linfo)
        for i in range(g.nnodes):
            kind, v0, v1, _, _ = linfo[i]
            if kind not in (K_NONDOUBLE, K_CROSS, K_SPINNER):
                raise NotImplementedError(f"the native engine does not play layout tiles of kind {kind}")
            g.kind[i] = kind
            g.v0[i] = v0
            g.v1[i] = v1
            g.nmask[i] = lmask[i]
        g.spinner = state._spinner
        knock = state._knock
        g.knock = KN_NONE if knock is None else KN_PARTNER if knock[0] == "partner" else KN_FORCED
        g.knocker = -1 if knock is None else knock[1]
        rebuild_places(g, r)
        g.ext_deal = bool(external)
        w = state._window
        g.w_open = w is not None
        if w is not None:
            g.w_scorer = w.scorer
            g.w_missed = w.missed
            g.w_may = bool(w.may_claim)
            g.w_late = w.late
            g.w_claimed = 0 if w.claimed is None else w.claimed + 1
            log_window(g, R_DOMINO if w.reason == "domino" else R_PLAY)
        if log:
            from muggins.dominoes.fast import log_start

            s._init = log_start(state)
            g.ev_on = 1
            s.ord_on = 1
            s.acts = actions_of(r.top, r.ntiles)
            for seat in range(n):
                for j, t in enumerate(state.hands[seat]):
                    s.hseq[t.index] = j
            s.hseqn = r.ntiles
            posall = state._posall
            for j, x in enumerate(posall):
                s.pseq[x[4] * 4 + bit_slot(x[5])] = j
            s.pseqn = len(posall)
            for j, t in enumerate(state._ltile):
                s.ntile[j] = t.index
                s.nparent[j] = linfo[j][3]
                s.nslot[j] = linfo[j][4] if linfo[j][3] >= 0 else 0
        return s

    def clone(self, log: bool = False) -> NativeDominoes:
        """A copy; without ``log`` it keeps no event log (playouts and search need none)."""
        cdef NativeDominoes c = NativeDominoes.__new__(NativeDominoes)
        c.g = self.g
        c.box = self.box
        c.rules = self.rules
        c.g.ev = NULL
        c.g.nev = 0
        c.g.evcap = 0
        c.g.ev_on = 0
        if not log:  # a playout's or search's copy deals for itself
            c.g.ext_deal = 0
        if log and self.g.ev_on:
            c.g.ev_on = 1
            c._init = self._init
            if not log_room(&c.g, self.g.nev):
                raise MemoryError("no memory to copy the event log")
            for i in range(self.g.nev):
                c.g.ev[i] = self.g.ev[i]
            c.g.nev = self.g.nev
            if self.ord_on:
                c.ord_on, c.ord_at, c.hseqn, c.pseqn, c.acts = 1, self.ord_at, self.hseqn, self.pseqn, self.acts
                c.hseq = self.hseq
                c.pseq = self.pseq
                c.ntile = self.ntile
                c.nparent = self.nparent
                c.nslot = self.nslot
        return c

    # --- external deals ------------------------------------------------------------------------------
    @property
    def needs_deal(self) -> bool:
        """Whether the next hand waits for its lots and deal (:meth:`deal_hand`; ``new(external=True)``)."""
        return bool(self.g.need_deal)

    def lot_seats(self) -> tuple[int, bool]:
        """Who draws lots for the leader of the hand that waits for its deal: (a mask of seats, 0 when
        nobody does; whether the lightest tile wins)."""
        cdef int leader, lightest
        if not self.g.need_deal:
            raise ValueError("no hand waits for its deal")
        seats = hand_lot(&self.g, &self.box.r, self.g.hand_no + 1, &leader, &lightest)
        return seats, bool(lightest)

    def deal_hand(self, tiles: list) -> None:
        """Start the hand that waits for its deal with these tile indices: the tiles of each round of lots
        (as :meth:`lot_seats` says, ties drawing again), then the whole set in deal order (each hand in
        turn, then the boneyard, its last tile drawn first)."""
        cdef Rules* r = &self.box.r
        cdef int k = len(tiles), i
        if not self.g.need_deal:
            raise ValueError("no hand waits for its deal")
        if k < r.ntiles or sorted(tiles[k - r.ntiles:]) != list(range(r.ntiles)):
            raise ValueError(f"a deal holds each of the {r.ntiles} tiles once")
        if any(type(t) is not int or not 0 <= t < r.ntiles for t in tiles[:k - r.ntiles]):
            raise ValueError("a lot draws tiles of the set")
        cdef int room = k + r.ntiles + 4
        cdef int* feed = <int*>malloc(room * sizeof(int))  # room for a lot more than given: refused below
        if feed == NULL:
            raise MemoryError("no memory for a deal")
        for i in range(room):
            feed[i] = tiles[i] if i < k else 0
        self._start_fed(feed, k)

    def deal_fresh(self, chance: object) -> None:
        """Deal the hand that waits for its deal from the generator of ``chance``, which has no recorded
        outcome left (:func:`muggins.dominoes.deals.fresh`): each round of lots and the deal drawn and recorded
        in ``chance`` as :func:`~muggins.dominoes.deals.draw_lot` and
        :func:`~muggins.dominoes.deals.draw_deal` draw and record them (the same draws, the same outcomes),
        the lots settled as :func:`~muggins.dominoes.deals.lot_tied` settles them."""
        cdef Rules* r = &self.box.r
        cdef int tiles[4]
        cdef int seat[4]
        cdef int leader, lightest, seats, k, i, tied
        if not self.g.need_deal:
            raise ValueError("no hand waits for its deal")
        seats = hand_lot(&self.g, r, self.g.hand_no + 1, &leader, &lightest)
        lots: list = []
        while seats:
            who = [s for s in range(r.n) if seats >> s & 1]
            got: list = []
            chance.next("lot", partial(_drawn_lot, who, r.top, r.ntiles, got))
            k = len(who)
            for i in range(k):
                tiles[i] = got[i]
                seat[i] = who[i]
            tied = lot_best(r, k, tiles, seat, lightest)
            lots.extend(got)
            seats = tied if popcount64(<uint64_t>tied) > 1 else 0
        chance.next("deal", partial(self.deal_shuffled, lots))

    def deal_shuffled(self, lots: list, rng: object) -> dict:
        """Start the hand that waits for its deal: the tiles of its lots (as :meth:`deal_hand`), then the
        whole set shuffled here with ``rng`` exactly as :func:`muggins.dominoes.deals.draw_deal` shuffles it
        (:func:`muggins.core.chance.shuffle`: Fisher-Yates on ``rng.random()``, from the last tile down).
        Returns the deal as ``draw_deal`` records it: the hands' and the boneyard's tile texts."""
        cdef Rules* r = &self.box.r
        cdef int perm[MAXTILES]
        cdef int n = r.ntiles, cut = r.n * r.each, k = len(lots), i, j, tmp
        if not self.g.need_deal:
            raise ValueError("no hand waits for its deal")
        if any(type(t) is not int or not 0 <= t < n for t in lots):
            raise ValueError("a lot draws tiles of the set")
        draw = rng.random
        for i in range(n):
            perm[i] = i
        i = n - 1
        while i > 0:
            j = <int>(<double>draw() * (i + 1))
            tmp = perm[i]
            perm[i] = perm[j]
            perm[j] = tmp
            i -= 1
        texts = tiles_of(r.top)[1]
        hands = [[texts[perm[s * r.each + i]] for i in range(r.each)] for s in range(r.n)]
        bone = [texts[perm[i]] for i in range(cut, n)]
        cdef int* feed = <int*>malloc((k + n + 4) * sizeof(int))
        if feed == NULL:
            raise MemoryError("no memory for a deal")
        for i in range(k + n + 4):
            feed[i] = 0
        for i in range(k):
            feed[i] = lots[i]
        for i in range(cut):
            feed[k + i] = perm[i]
        for i in range(cut, n):  # the boneyard's last tile is drawn first
            feed[k + i] = perm[n - 1 - (i - cut)]
        self._start_fed(feed, k + n)
        return {"hands": hands, "boneyard": bone}

    cdef _start_fed(self, int* feed, int given):
        """Start the hand that waits for its deal from ``feed`` (its lots, then the set in deal order), which
        this frees; ``given`` is how many tiles of it the lots and the deal are to use."""
        self.g.feed = feed
        self.g.nfeed = 0
        start_hand(&self.g, &self.box.r)
        self.g.feed = NULL
        free(feed)
        if self.ord_on:
            self._order(-1, 0, 0, -1)
        if self.g.nfeed != given:  # pragma: no cover - lots out of step with lot_seats
            raise RuntimeError(f"the lots and deal used {self.g.nfeed} tiles of the {given} given")

    # --- the pure engine's orders, and the protocol's Actions -----------------------------------------
    cdef void _order(self, int node, int bit, int pk, int nid) noexcept:
        """Bring the orders up to the end of the log: a deal orders each hand as dealt, a drawn tile goes
        last, a play opens its places as ``DominoState._place`` does (the play just applied: laid as layout
        tile ``nid`` on free place ``node``/``bit``, a layout tile of kind ``pk`` before; ``nid`` -1: none
        was, and a play found here leaves the orders unknown)."""
        cdef Game* g = &self.g
        cdef int i = self.ord_at, j, code, ntiles = self.box.r.ntiles
        cdef int* ev = g.ev
        if g.ev_lost:
            self.ord_on = 0
            return
        while i < g.nev:
            code = ev[i]
            if code == EV_DEAL:
                for j in range(ntiles):
                    self.hseq[ev[i + 4 + j]] = j
                self.hseqn = ntiles
            elif code == EV_DRAW:
                self.hseq[ev[i + 2]] = self.hseqn
                self.hseqn += 1
            elif code == EV_PLAY:
                if nid < 0:  # pragma: no cover - a play not made through _apply
                    self.ord_on = 0
                    return
                self._order_play(ev[i + 2], ev[i + 3], node, bit, pk, nid)
            i += record_length(ev, i, ntiles)
        self.ord_at = g.nev

    cdef void _order_play(self, int t, int k, int node, int bit, int pk, int nid) noexcept:
        """Tile ``t`` laid on free place ``k`` (-1: the lead), as ``LogDecoder._place`` keeps the places."""
        cdef Rules* r = &self.box.r
        self.ntile[nid] = t
        self.nparent[nid] = node if k >= 0 else -1
        self.nslot[nid] = bit if k >= 0 else 0
        if k >= 0:
            if pk == K_NONDOUBLE and r.hi[t] != r.lo[t] and not r.fill_first:  # the line grows in place
                self.pseq[nid * 4 + 1] = self.pseq[node * 4 + bit_slot(bit)]
                return
            if pk != K_NONDOUBLE:  # a double's places are opened again, after the others
                self._fresh_places(node)
            if self.g.kind[nid] == K_NONDOUBLE:  # its far end
                self.pseq[nid * 4 + 1] = self.pseqn
                self.pseqn += 1
                return
        self._fresh_places(nid)

    cdef void _fresh_places(self, int node) noexcept:
        """Number the free places of layout tile ``node`` as opened now (``LogDecoder._positions``)."""
        cdef Game* g = &self.g
        cdef int kind = g.kind[node], mask = g.nmask[node], line, branch, base = node * 4
        if kind == K_NONDOUBLE:
            if not mask & 1:
                self.pseq[base] = self.pseqn
                self.pseqn += 1
            if not mask & 2:
                self.pseq[base + 1] = self.pseqn
                self.pseqn += 1
            return
        line = mask & 3
        if line != 3:
            self.pseq[base + bit_slot(2 if line & 1 else 1)] = self.pseqn
            self.pseqn += 1
        if kind == K_CROSS:
            return
        branch = mask & 12
        if branch != 12 and (line == 3 or not self.box.r.sides_first):
            self.pseq[base + bit_slot(8 if branch & 4 else 4)] = self.pseqn
            self.pseqn += 1

    cdef list _offer(self, int seat):
        """The Actions ``seat`` may take now, in the pure engine's order (``DominoState.legal_actions``),
        kept with their ids as the offer :meth:`apply` knows."""
        cdef int moves[MAXMOVES]
        cdef int keys[MAXMOVES]
        cdef Game* g = &self.g
        cdef Rules* r = &self.box.r
        cdef int nm = 0, i, j, mv, key, t, slot, node = 0, amount, draw = r.ntiles * r.slots, slots = r.slots
        cdef int ntiles = r.ntiles
        if not self.ord_on:
            raise ValueError("this game keeps no orders of its hands and places (make it with log=True)")
        if not g.over:
            nm = regular(g, r, seat, moves)
        for i in range(nm):  # plays by the hand's order, then the places'; the other moves after them
            mv = moves[i]
            if mv < draw:
                slot = mv % slots
                key = self.hseq[mv // slots] * 65536
                if slot:
                    key += self.pseq[g.pnode[slot - 1] * 4 + bit_slot(g.pbit[slot - 1])]
            else:
                key = 0x7FFF0000 + mv - draw
            j = i
            while j > 0 and keys[j - 1] > key:
                keys[j] = keys[j - 1]
                moves[j] = moves[j - 1]
                j -= 1
            keys[j] = key
            moves[j] = mv
        out: list = []
        acts = self.acts
        for i in range(nm):
            mv = moves[i]
            if mv < draw:
                t = mv // slots
                slot = mv % slots
                if slot:
                    node = g.pnode[slot - 1]
                    key = play_key(ntiles, t, self.ntile[node], g.pbit[slot - 1] >= 4)
                else:
                    key = play_key(ntiles, t, -1, 0)
                a = acts[key]
                if a is None:
                    tiles = tiles_of(r.top)[0]
                    a = acts[key] = Action("play", tiles[t], tiles[self.ntile[node]] if slot else None,
                                           "end" if slot and g.pbit[slot - 1] >= 4 else None)
                self.offer_ids[i] = mv * r.width
            else:
                a = _MOVES[mv - draw]
                self.offer_ids[i] = r.play_stop + mv - draw
            out.append(a)
            self.offer_ptr[i] = <void*>a
        if g.w_open and not g.over:
            a = None
            if r.side[seat] != r.side[g.w_scorer]:  # the scorer's partner cannot call on his own side
                a = MUGGINS
                self.offer_ids[nm] = r.mug_start
            elif seat == g.w_scorer and g.w_may:
                amount = min(g.w_missed, g.w_late)
                a = _CLAIMS.get(amount)
                if a is None:
                    a = _CLAIMS[amount] = Action("claim", claim=amount)
                self.offer_ids[nm] = r.claim_start + amount
            if a is not None:
                out.append(a)
                self.offer_ptr[nm] = <void*>a
                nm += 1
        self.noffer = nm
        self.offer_seat = seat
        self.offer_at = g.nev
        return out

    def legal_actions(self, seat: object) -> list:
        """The Actions ``seat`` may take now, as ``DominoState.legal_actions`` lists them (the same, in the
        same order: each move claiming nothing, a call naming nothing, a late claim of its true amount);
        each Action is made once and shared. Needs the log (``log=True``)."""
        if type(seat) is not int or not 0 <= seat < self.box.r.n:
            raise NoSuchSeat(f"there is no seat {seat!r}; seats are 0 to {self.box.r.n - 1}")
        return self._offer(seat)

    def apply(self, seat: object, action: object) -> None:
        """Apply ``action`` for ``seat``: an Action :meth:`legal_actions` just offered ``seat`` (the very
        object) is applied by its id here; any other goes to :attr:`on_other` (the protocol's checks)."""
        cdef int j
        cdef void* p = <void*>action
        if self.offer_at == self.g.nev and type(seat) is int and seat == self.offer_seat:
            for j in range(self.noffer):
                if self.offer_ptr[j] == p:
                    self._do(self.offer_seat, self.offer_ids[j])
                    return
        if self.on_other is None:
            raise TypeError("this game applies only the Actions legal_actions offered (no on_other)")
        self.on_other(seat, action)

    def offered_id(self, seat: int, action: object) -> int:
        """The id of ``action`` if it equals one of the Actions ``seat`` may take now (as offered by
        :meth:`legal_actions`), else -1."""
        cdef int j
        self.legal_actions(seat)
        for j in range(self.noffer):
            if <object>self.offer_ptr[j] == action:
                return self.offer_ids[j]
        return -1

    # --- the event log ------------------------------------------------------------------------------
    @property
    def logging(self) -> bool:
        """Whether events are logged (switch it off for speed; the log is then incomplete for good)."""
        return bool(self.g.ev_on)

    @logging.setter
    def logging(self, on: bool) -> None:
        if on and not self.g.ev_on and (self.g.nev or self.g.hand_no):
            raise ValueError("the log can only be switched on before the game starts (new(..., log=True))")
        self.g.ev_on = bool(on)

    @property
    def log_size(self) -> int:
        """The ints of the event log so far (it grows with every logged action)."""
        return self.g.nev

    def log_ints(self, start: int = 0) -> list[int]:
        """The raw log from int ``start``: records of a code and its fields (see the EV_ codes)."""
        if self.g.ev_lost:
            raise MemoryError("the event log ran out of memory and is incomplete")
        if type(start) is not int or start < 0:
            raise ValueError(f"start is a whole number from 0; got {start!r}")
        return [self.g.ev[i] for i in range(start, self.g.nev)]

    def events(self, start: int = 0) -> list:
        """The events from ``start``, as the pure engine logs them (Events made now, and kept)."""
        if self._dec is None:
            if not self.g.ev_on and not self.g.nev:
                raise ValueError("this game keeps no event log (make it with log=True)")
            from muggins.dominoes.fast import LogDecoder

            self._dec = LogDecoder(self.rules, self.box.r.n, self._init)
        return self._dec.events(self.log_ints(self._dec.pos), start)

    def decoder(self) -> object:
        """The :class:`~muggins.dominoes.fast.LogDecoder` of this game's log (None before :meth:`events`)."""
        return self._dec

    def history_ids(self) -> list[tuple[int, int]]:
        """Every action applied through :meth:`apply_id` while logging: (seat, id)."""
        if self._dec is None:
            self.events(0)
        return self._dec.history(self.log_ints(self._dec.pos))

    def chance_outcomes(self) -> list[dict]:
        """The lots and deals so far as :class:`~muggins.core.chance.Chance` outcomes (the pure engine
        replays them)."""
        if self._dec is None:
            self.events(0)
        self._dec.events(self.log_ints(self._dec.pos), 0)
        return list(self._dec.outcomes)

    def seed(self, seed: int) -> None:
        """Restart the native PRNG (deals, random draws and moves of playouts)."""
        self.g.rng = mix_seed(seed)

    # --- reading ------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.box.r.n

    @property
    def hand_no(self) -> int:
        return self.g.hand_no

    @property
    def count(self) -> int:
        return self.g.count

    def num_distinct_actions(self) -> int:
        return self.box.r.size

    def waiting_for(self) -> frozenset[int]:
        """The seats the game waits for, as the protocol's ``waiting_for``."""
        return _NOBODY if self.g.over else _SEATS[self.g.turn]

    def to_move(self) -> int:
        """The seat the game waits for (-1 once it is over)."""
        return -1 if self.g.over else self.g.turn

    def to_act(self) -> list[int]:
        """Every seat that may act now: the one waited for, and while a window is open its callers and
        (when he may still claim) its scorer."""
        if self.g.over:
            return []
        out = {self.g.turn}
        if self.g.w_open:
            side = self.box.r.side
            out.update(s for s in range(self.box.r.n) if side[s] != side[self.g.w_scorer])
            if self.g.w_may:
                out.add(self.g.w_scorer)
        return sorted(out)

    def is_over(self) -> bool:
        return bool(self.g.over)

    def side_scores(self) -> list[int]:
        """The score of each side (each seat, or the two partnerships)."""
        return [self.g.scores[s] for s in range(self.box.r.nsides)]

    def winners(self) -> list[int]:
        """The seats that won (partners both)."""
        return [s for s in range(self.box.r.n) if self.g.winners >> self.box.r.side[s] & 1]

    def hands(self) -> list[list[int]]:
        """Each seat's tiles by index."""
        return [[t for t in range(self.box.r.ntiles) if self.g.hand[s] >> t & 1] for s in range(self.box.r.n)]

    def boneyard(self) -> list[int]:
        """The boneyard's tiles by index, the next drawn by :meth:`apply_id` last."""
        return [self.g.bone[i] for i in range(self.g.nbone)]

    def window(self) -> tuple[int, int, bool] | None:
        """The open muggins window as (scorer, missed points, whether he may still claim), or None."""
        if not self.g.w_open:
            return None
        return (self.g.w_scorer, self.g.w_missed, bool(self.g.w_may))

    # --- what the views read (small ints and tuples, made here; ``NativeDominoState.view``) -------------
    def table(self) -> tuple:
        """What every seat may see, in small ints: (each seat's hand size, the boneyard's size, each side's
        score, the seat to move (-1 once over), whether the hand waits for its lead, the count, the hand
        number, the layout tiles, whether the game is over, the winning sides as a mask, the open window as
        (scorer, what he announced or -1, its reason: 0 a play, 1 a play and its domino bonus, whether he
        may still claim) or None)."""
        cdef Game* g = &self.g
        cdef Rules* r = &self.box.r
        w = None
        if g.w_open:
            w = (g.w_scorer, g.w_claimed - 1, g.w_reason, bool(g.w_may))
        return (tuple([popcount64(g.hand[s]) for s in range(r.n)]), g.nbone,
                [g.scores[s] for s in range(r.nsides)], -1 if g.over else g.turn, bool(g.lead_phase), g.count,
                g.hand_no, g.nnodes, bool(g.over), g.winners, w)

    def hand_of(self, seat: int) -> list[int]:
        """``seat``'s tiles by index, ascending."""
        if type(seat) is not int or not 0 <= seat < self.box.r.n:
            raise NoSuchSeat(f"there is no seat {seat!r}; seats are 0 to {self.box.r.n - 1}")
        cdef uint64_t m = self.g.hand[seat]
        cdef int t
        out = []
        while m:
            t = lowbit(m)
            m &= m - 1
            out.append(t)
        return out

    def layout_tiles(self, start: int = 0) -> list[tuple[int, int, int, int, int]]:
        """The layout tiles from number ``start`` on, each as (tile, the layout tile it was laid on or -1 for
        the lead, the slot bit of it that it took, its kind, the value it touches there). Needs the log
        (``log=True``)."""
        if not self.ord_on:
            raise ValueError("this game keeps no layout geometry (make it with log=True)")
        cdef Game* g = &self.g
        return [(self.ntile[i], self.nparent[i], self.nslot[i], g.kind[i], g.v0[i])
                for i in range(max(0, start), g.nnodes)]

    def places(self) -> list[tuple[int, int, int]]:
        """The layout's free places as (layout tile, slot bit, value), by layout tile, then slot bit."""
        cdef Game* g = &self.g
        return sorted([(g.pnode[k], g.pbit[k], g.pval[k]) for k in range(g.nplaces)])

    def offered(self, seat: int) -> list:
        """:meth:`legal_actions` of ``seat`` for reading only: the offer :meth:`apply` knows is left as it
        was (a view asks this of every seat between the moves)."""
        cdef int at = self.offer_at, who = self.offer_seat, k = self.noffer, j
        cdef void* ptr[MAXMOVES + 2]
        cdef int ids[MAXMOVES + 2]
        for j in range(k):
            ptr[j] = self.offer_ptr[j]
            ids[j] = self.offer_ids[j]
        out = self.legal_actions(seat)
        for j in range(k):
            self.offer_ptr[j] = ptr[j]
            self.offer_ids[j] = ids[j]
        self.offer_at, self.offer_seat, self.noffer = at, who, k
        return out

    def points_of(self, i: int) -> int:
        """The points the play numbered ``i`` makes now (0 for another move)."""
        cdef Rules* r = &self.box.r
        if not 0 <= i < r.play_stop:
            return 0
        return move_points(&self.g, r, i // r.width)

    # --- moves --------------------------------------------------------------------------------------
    def legal_ids(self, seat: int) -> list[int]:
        """Every id ``seat`` may use now: the ids ``DominoState.legal_action_mask`` sets."""
        cdef int moves[MAXMOVES]
        cdef Rules* r = &self.box.r
        cdef int nm, i, mv, w = r.width, draw = r.ntiles * r.slots
        if type(seat) is not int or not 0 <= seat < r.n:
            raise NoSuchSeat(f"there is no seat {seat!r}; seats are 0 to {r.n - 1}")
        if self.g.over:
            return []
        nm = regular(&self.g, r, seat, moves)
        out: list[int] = []
        for i in range(nm):
            mv = moves[i]
            if mv < draw:
                out.extend(range(mv * w, mv * w + w))
            else:
                out.append(r.play_stop + mv - draw)
        if self.g.w_open:
            if r.side[seat] != r.side[self.g.w_scorer]:
                out.extend(range(r.mug_start, r.mug_start + r.B + 2))
            elif seat == self.g.w_scorer and self.g.w_may:
                out.extend(range(r.claim_start, r.claim_start + r.B + 1))
        return sorted(out)

    def legal_action_ids(self, seat: object) -> list[int]:
        """The ids of the actions ``legal_actions`` lists, ascending: each move claiming nothing, a muggins
        call naming nothing, a late claim of its true amount (``GameState.legal_action_ids``)."""
        cdef int moves[MAXMOVES]
        cdef Rules* r = &self.box.r
        cdef int nm, i, j, x, draw = r.ntiles * r.slots
        if type(seat) is not int or not 0 <= seat < r.n:
            raise NoSuchSeat(f"there is no seat {seat!r}; seats are 0 to {r.n - 1}")
        if self.g.over:
            return []
        nm = regular(&self.g, r, seat, moves)
        for i in range(nm):
            x = moves[i]
            x = x * r.width if x < draw else r.play_stop + x - draw
            j = i
            while j > 0 and moves[j - 1] > x:
                moves[j] = moves[j - 1]
                j -= 1
            moves[j] = x
        out = [moves[i] for i in range(nm)]
        if self.g.w_open:
            if r.side[seat] != r.side[self.g.w_scorer]:  # the scorer's partner cannot call on his own side
                out.append(r.mug_start)
            elif seat == self.g.w_scorer and self.g.w_may:
                out.append(r.claim_start + min(self.g.w_missed, self.g.w_late))
        return out

    def apply_id(self, seat: int, i: int) -> None:
        """Apply the action numbered ``i`` for ``seat``: IllegalAction (a subclass) when it is not legal
        now (ClaimError for a call or a late claim out of turn), and the state unchanged."""
        self._apply(seat, i, 0)

    def apply_action_id(self, seat: object, i: object) -> None:
        """:meth:`apply_id` with the errors of ``GameState.apply_action_id``: NoSuchSeat, GameOver,
        UnknownAction (no such id), else IllegalAction for any id not legal for ``seat`` now (a call or a
        late claim included), the state unchanged. The integer protocol of ``NativeDominoState``."""
        self._apply(seat, i, 1)

    cdef _apply(self, object seat, object i, bint protocol):
        cdef int moves[MAXMOVES]
        cdef Rules* r = &self.box.r
        cdef Game* g = &self.g
        cdef int nm, k, x, s, base, draw = r.ntiles * r.slots
        if type(seat) is not int or not 0 <= seat < r.n:
            raise NoSuchSeat(f"there is no seat {seat!r}; seats are 0 to {r.n - 1}")
        if g.over:
            raise GameOver("the game is over")
        if type(i) is not int or not 0 <= i < r.size:
            raise UnknownAction(f"there is no action id {i!r}: this game numbers its actions from 0 to "
                                f"{r.size - 1}")
        x = i
        s = seat
        if x < r.mug_start:
            base = x // r.width if x < r.play_stop else draw + x - r.play_stop
            nm = regular(g, r, s, moves)
            for k in range(nm):
                if moves[k] == base:
                    break
            else:
                raise IllegalAction(f"action id {i} is not a legal move of seat {seat} now")
        elif x < r.claim_start:
            if not g.w_open or r.side[s] == r.side[g.w_scorer]:
                if protocol:
                    raise IllegalAction(f"action id {i} (muggins) is not a legal move of seat {seat} now")
                raise ClaimError(f"seat {seat} cannot call muggins now")
        elif not g.w_open or s != g.w_scorer or not g.w_may:
            if protocol:
                raise IllegalAction(f"action id {i} (claim) is not a legal move of seat {seat} now")
            raise ClaimError(f"seat {seat} has nothing to claim now")
        self._do(s, x)

    cdef _do(self, int seat, int i):
        """Apply the legal action numbered ``i`` for ``seat`` (checked by the caller), keep the orders, and
        ask for the next hand's deal if it waits for one."""
        cdef Rules* r = &self.box.r
        cdef Game* g = &self.g
        cdef int base, code, draw = r.ntiles * r.slots
        cdef int node = -1, bit = 0, pk = 0, nid = g.nnodes  # a play's place, for the orders (_order)
        log_act(g, seat, i)
        if i < r.mug_start:
            if i < r.play_stop:
                base = i // r.width
                code = i % r.width
                if base % r.slots:
                    node = g.pnode[base % r.slots - 1]
                    bit = g.pbit[base % r.slots - 1]
                    pk = g.kind[node]
            else:
                base = draw + i - r.play_stop
                code = 0
            apply_regular(g, r, seat, base, code - 1 if r.manual and base < draw else -1, 0)
        elif i < r.claim_start:
            code = i - r.mug_start
            call_muggins(g, r, seat, code - 1)  # code 0: a call naming nothing (-1)
        else:
            late_claim(g, r, seat, i - r.claim_start)
        if self.ord_on:
            self._order(node, bit, pk, nid)
        if g.need_deal and self.on_deal is not None:
            self.on_deal()

    def playout(self, policy: int = 0, seed: int = 0, max_moves: int = 1 << 30, until_hand_end: bool = False,
                greedy: float | None = None, defender: int = -1) -> int:
        """Play on natively: random (0) or greedy (1: the highest-scoring play, ties at random) moves, each
        play claiming its true points, nobody calling; until the game ends, ``max_moves`` were made or, with
        ``until_hand_end``, the current hand is over (the next one dealt). ``greedy`` (a probability) mixes
        the two as the search bot's rollouts do: each choice greedy with that probability, else uniform, and
        draws taken from the end of the boneyard as in :meth:`apply_id` (the world's own order); the seat
        ``defender``'s greedy choices then score most less the next seat's best reply (the search's
        ``defend``). Returns the moves made."""
        if greedy is None and policy not in (0, 1):
            raise ValueError("policy is 0 (random) or 1 (greedy)")
        if greedy is not None and not 0.0 <= greedy <= 1.0:
            raise ValueError(f"greedy is a probability (0 to 1), not {greedy!r}")
        if max_moves < 0:
            raise ValueError("max_moves cannot be negative")
        if not -1 <= defender < self.box.r.n or (defender >= 0 and greedy is None):
            raise ValueError(f"defender is a seat of the mixed policy (greedy given) or -1, not {defender!r}")
        self.g.rng = mix_seed(seed)
        cdef long mm = max_moves
        cdef int made, pol = policy if greedy is None else 2, until = bool(until_hand_end)
        cdef double p = 1.0 if greedy is None else greedy
        cdef int d = defender
        with nogil:
            made = run_playout(&self.g, &self.box.r, pol, mm, until, p, d)
        return made


def from_state(state: object, seed: int = 0) -> NativeDominoes:
    """:meth:`NativeDominoes.from_state`: every native engine's module offers it (the search bot's
    rollouts)."""
    return NativeDominoes.from_state(state, seed)


def protocol_state(rules: object, players: int, seed: int = 0) -> object:
    """A :class:`~muggins.dominoes.fast.NativeDominoState`: a new game on this engine spoken to through the
    protocol (``muggins bench`` and :func:`muggins.perf.random_play` find it here)."""
    from muggins.dominoes.fast import NativeDominoState

    return NativeDominoState(rules, players, seed)


def random_play_native(rules: object, players: int, seconds: float, seed: int = 0) -> dict[str, float]:
    """Whole games dealt and played natively with random moves for about ``seconds`` of CPU time (the
    figure beside :func:`muggins.perf.random_play`)."""
    cdef NativeDominoes s
    cdef long moves = 0, games = 0
    cdef double start = clock(), stop = start + seconds * CLOCKS_PER_SEC
    cdef long g = seed
    template = NativeDominoes.new(rules, players, seed)
    while True:
        s = template.clone()
        s.g.rng = mix_seed(g)
        s.g.hand_no = 0
        start_hand(&s.g, &s.box.r)
        with nogil:
            moves += run_playout(&s.g, &s.box.r, 0, 1 << 30)
        games += 1
        g += 1
        if clock() >= stop:
            break
    elapsed = (clock() - start) / CLOCKS_PER_SEC
    return {"moves": moves, "games": games, "seconds": elapsed, "moves_per_second": moves / elapsed,
            "games_per_second": games / elapsed}


# ------------------------------------------------------------------------------------------ search ----
# SO-ISMCTS (the search bot's, ``muggins.bots.search``) with every iteration in C: a world drawn under the
# seat's constraints, the tree walk, one expansion, the mixed rollout and the back-propagation. The
# constraints come once per search from the seat's view (``DominoState.sampling_frame``), as masks.

from libc.stdlib cimport malloc, realloc, free
from libc.math cimport sqrt, log, tanh, exp
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC


cdef enum:
    BELIEF_WORLDS = 2048  # the candidate worlds weighed by the others' choices, once per search


cdef int augment(Frame* f, int i, int* perm, int* owner, int* match, char* seen) noexcept nogil:
    """Kuhn's augmenting path from slot ``i`` over the shuffled pool ``perm``."""
    cdef int j
    for j in range(f.npool):
        if not seen[j] and not (f.forbid[i] >> perm[j]) & 1:
            seen[j] = 1
            if owner[j] < 0 or augment(f, owner[j], perm, owner, match, seen):
                owner[j] = i
                match[i] = j
                return 1
    return 0


cdef int draw_world(Game* g, Frame* f, uint64_t* rng, int* slot_tile=NULL) noexcept nogil:
    """Give every slot a distinct unseen tile it allows and the rest to the boneyard, all in random order
    (shuffled pool and slots, first free fitting tile, an augmenting path when stuck). 0, or -1 when no
    assignment fits the masks."""
    cdef int perm[MAXTILES]
    cdef int order[MAXTILES]
    cdef int owner[MAXTILES]
    cdef int match[MAXTILES]
    cdef char seen[MAXTILES]
    cdef int i, j, k, tmp, s, found
    if f.omniscient:
        return 0
    for i in range(f.npool):
        perm[i] = f.pool[i]
        owner[i] = -1
    shuffle_ints(perm, f.npool, rng)
    for i in range(f.nslots):
        order[i] = i
    shuffle_ints(order, f.nslots, rng)
    for k in range(f.nslots):
        i = order[k]
        found = 0
        for j in range(f.npool):
            if owner[j] < 0 and not (f.forbid[i] >> perm[j]) & 1:
                owner[j] = i
                match[i] = j
                found = 1
                break
        if not found:
            for j in range(f.npool):
                seen[j] = 0
            if not augment(f, i, perm, owner, match, seen):
                return -1
    for s in range(4):
        if s != f.seat:
            g.hand[s] = 0
    for i in range(f.nslots):
        g.hand[f.slot_seat[i]] |= (<uint64_t>1) << perm[match[i]]
        if slot_tile != NULL:
            slot_tile[i] = perm[match[i]]
    k = 0
    for j in range(f.npool):
        if owner[j] < 0:
            g.bone[k] = perm[j]
            k += 1
    g.nbone = k
    return 0


cdef double log_likelihood(Frame* f, int* slot_tile) noexcept nogil:
    """How likely the others' past choices are in a world (up to a constant): for every decision, the chosen
    move's weight (the same in every world) over the weight of every move his hand then allowed."""
    cdef double lw = 0.0, tot
    cdef int d, i
    cdef uint64_t h
    for d in range(f.ndec):
        tot = f.known[d]
        h = f.held[d]
        for i in range(f.nslots):
            if h >> i & 1:
                tot += f.z[d * 64 + slot_tile[i]]
        lw -= log(tot)
    return lw


cdef struct Belief:
    int n
    uint64_t* seed     # the generator state each candidate world is drawn from
    double* cum        # cumulative weights


cdef inline void free_belief(Belief* b) noexcept nogil:
    free(b.seed)
    free(b.cum)


cdef int weigh_worlds(Game* root, Frame* f, Belief* b, int n, uint64_t* rng) noexcept nogil:
    """Draw ``n`` candidate worlds and weigh each by how likely it makes the others' past choices
    (sampling-importance-resampling: each iteration then picks one by weight). -1 when none fits or no
    memory."""
    cdef Game w
    cdef int slot_tile[MAXTILES]
    cdef int i
    cdef double top = -1e300, acc = 0.0
    cdef double* lw = <double*>malloc(n * sizeof(double))
    b.seed = <uint64_t*>malloc(n * sizeof(uint64_t))
    b.cum = <double*>malloc(n * sizeof(double))
    b.n = n
    if lw == NULL or b.seed == NULL or b.cum == NULL:
        free(lw)
        return -1
    for i in range(n):
        b.seed[i] = rng[0]
        w = root[0]
        if draw_world(&w, f, rng, slot_tile) < 0:
            free(lw)
            return -1
        lw[i] = log_likelihood(f, slot_tile)
        if lw[i] > top:
            top = lw[i]
    for i in range(n):
        acc += exp(lw[i] - top)
        b.cum[i] = acc
    free(lw)
    return 0


cdef int draw_believed(Game* w, Frame* f, Belief* b, uint64_t* rng) noexcept nogil:
    """A world by weight from the candidates, its boneyard shuffled afresh (the choices say nothing of its
    order)."""
    cdef double u = splitmix_unit(rng) * b.cum[b.n - 1]
    cdef int lo = 0, hi = b.n - 1, mid
    cdef uint64_t st
    while lo < hi:
        mid = (lo + hi) // 2
        if b.cum[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    st = b.seed[lo]
    if draw_world(w, f, &st) < 0:
        return -1
    shuffle_ints(w.bone, w.nbone, rng)
    return 0


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef int new_node(Tree* t, int parent, int actor, int move) noexcept nogil:
    """A child of ``parent`` (first in its list), or -1 when memory runs out."""
    cdef Node* grown
    cdef int i
    if t.size == t.cap:
        grown = <Node*>realloc(t.nodes, 2 * t.cap * sizeof(Node))
        if grown == NULL:
            return -1
        t.nodes = grown
        t.cap *= 2
    i = t.size
    t.size += 1
    t.nodes[i].actor = actor
    t.nodes[i].move = move
    t.nodes[i].child = -1
    t.nodes[i].visits = 0
    t.nodes[i].avail = 1
    t.nodes[i].reward = 0.0
    if parent >= 0:
        t.nodes[i].sibling = t.nodes[parent].child
        t.nodes[parent].child = i
    else:
        t.nodes[i].sibling = -1
    return i


cdef inline int child_of(Tree* t, int node, int actor, int mv) noexcept nogil:
    """The child of ``node`` for ``actor``'s move ``mv``, or -1."""
    cdef int ch = t.nodes[node].child
    while ch >= 0 and (t.nodes[ch].move != mv or t.nodes[ch].actor != actor):
        ch = t.nodes[ch].sibling
    return ch


cdef long run_search(Game* root, Rules* r, Frame* f, Tree* t, int* path, long iterations, double deadline,
                     const Knobs* k, uint64_t rng, long* rollouts) noexcept nogil:
    """The iterations of ``SearchPolicy._iterate`` (see ``iterate``), the worlds weighed first when ``f`` has
    the others' choices to weigh them by; -1 when no world fits the masks or memory runs out."""
    cdef Belief b
    cdef long done
    b.n = 0
    b.seed = NULL
    b.cum = NULL
    if f.ndec > 0 and not f.omniscient and weigh_worlds(root, f, &b, BELIEF_WORLDS, &rng) < 0:
        done = -1
    else:
        done = iterate(root, r, f, t, path, iterations, deadline, k, rng, rollouts, &b)
    free_belief(&b)
    return done


cdef long iterate(Game* root, Rules* r, Frame* f, Tree* t, int* path, long iterations, double deadline,
                  const Knobs* k, uint64_t rng, long* rollouts, Belief* b) noexcept nogil:
    """The iterations of ``SearchPolicy._iterate`` until ``iterations`` are done or ``deadline`` passes
    (checked every 8), counting the rollouts in ``rollouts``, each world drawn by weight from ``b`` when it
    has candidates; -1 when no world fits the masks or memory runs out."""
    cdef Game w
    cdef int moves[MAXMOVES]
    cdef int untried[MAXMOVES]
    cdef int before[4]
    cdef double rew[4]
    cdef long done = 0
    cdef int n = r.n, node, plies, npath, actor, nm, nu, i, ch, best, mv, hand0, s, total, fresh
    cdef double v, best_v, others
    while done < iterations:
        w = root[0]
        if (draw_believed(&w, f, b, &rng) if b.n else draw_world(&w, f, &rng)) < 0:
            return -1
        w.rng = splitmix_next(&rng)
        hand0 = w.hand_no
        for s in range(n):
            before[s] = w.scores[s]
        node = 0
        plies = 0
        npath = 0
        while plies < k.horizon and not w.over:
            actor = w.turn
            nm = regular(&w, r, actor, moves)
            if nm == 0:
                break
            if k.model and actor != f.seat:
                # another seat moves as the rollouts do (greedy with probability ``greedy``, else at random),
                # with the hand the world gives him: his node records what the seat will see
                if nm == 1:
                    i = 0
                elif splitmix_unit(&rng) < k.greedy:
                    i = greedy_pick(&w, r, moves, nm)
                else:
                    i = <int>(splitmix_next(&rng) % <uint64_t>nm)
                mv = moves[i]
                ch = child_of(t, node, actor, mv)
                fresh = ch < 0
            else:
                nu = 0
                best = -1
                best_v = -1.0
                for i in range(nm):
                    ch = child_of(t, node, actor, moves[i])
                    if ch < 0:
                        untried[nu] = moves[i]
                        nu += 1
                        continue
                    t.nodes[ch].avail += 1
                    v = t.nodes[ch].reward / t.nodes[ch].visits + k.c * sqrt(log(<double>t.nodes[ch].avail)
                                                                            / t.nodes[ch].visits)
                    if v > best_v:
                        best = ch
                        best_v = v
                fresh = nu > 0
                if fresh:
                    mv = untried[0] if nu == 1 else untried[<int>(splitmix_next(&rng) % <uint64_t>nu)]
                else:
                    ch = best
                    mv = t.nodes[best].move
            if fresh:  # one new node per iteration, then the rollout
                ch = new_node(t, node, actor, mv)
                if ch < 0:
                    return -1
            path[npath] = ch
            npath += 1
            apply_true(&w, r, actor, mv)
            plies += 1
            node = ch
            if fresh or w.hand_no != hand0:
                break
        if plies < k.horizon and not w.over and w.hand_no == hand0:
            run_playout(&w, r, 2, k.horizon - plies, 1, k.greedy, f.seat if k.defend else -1)
            rollouts[0] += 1
        if w.over and not k.points:
            for s in range(n):
                rew[s] = 1.0 if w.winners >> s & 1 else 0.0
        else:
            total = 0
            for s in range(n):
                total += w.scores[s] - before[s]
            for s in range(n):
                others = (total - (w.scores[s] - before[s])) / <double>(n - 1)
                rew[s] = 0.5 + 0.5 * tanh((w.scores[s] - before[s] - others) / k.scale)
        for i in range(npath):
            t.nodes[path[i]].visits += 1
            t.nodes[path[i]].reward += rew[t.nodes[path[i]].actor]
        done += 1
        if (done & 7) == 0 and now_seconds() >= deadline:
            break
    return done


# what the search's frame and rewards assume: no inference a replay learns (a knock, a kept or lost extra turn,
# a lead rule), one hand per side; the engine plays these, the Python search searches them
_SEARCH_FIXED: dict[str, object] = {"lead_must_be": "any", "spinner_fill_first": False, "voluntary_draw": False,
                                    "knocking": False, "extra_turn": "none", "mug_bonus": False}


cdef NativeDominoes frame_of(object state, int seat, Frame* f, bint omniscient=False, bint hands_known=False):
    """The native game of ``state`` and, in ``f``, the seat's constraints on the hidden tiles, from the seat's
    view only (``DominoState.sampling_frame``). NotImplementedError where the masks cannot say what the pure
    sampler checks. ``omniscient``: nothing hidden (every world is the true state, only the future random)."""
    cdef NativeDominoes root = NativeDominoes.from_state(state)
    cdef int n = root.box.r.n, s, k = 0, t, i
    if not 0 <= seat < n:
        raise NoSuchSeat(f"there is no seat {seat!r}; seats are 0 to {n - 1}")
    rules = state.rules
    for name, v in _SEARCH_FIXED.items():
        if getattr(rules, name) != v:
            raise NotImplementedError(f"the native search does not play {name}={getattr(rules, name)!r}")
    if rules.partnerships and n == 4:
        raise NotImplementedError("the native search does not play partnerships (its rewards are per seat)")
    f.seat = seat
    f.omniscient = omniscient
    f.ndec = 0
    f.held = NULL
    f.known = NULL
    f.z = NULL
    if omniscient:
        f.nslots = 0
        f.npool = 0
        return root
    if hands_known:  # every hand known, the boneyard's order random: what perfect inference could reach
        f.npool = 0
        for s in range(n):
            if s == seat:
                continue
            for t in range(64):
                if root.g.hand[s] >> t & 1:
                    f.slot_seat[k] = s
                    f.forbid[k] = ~((<uint64_t>1) << t)
                    f.pool[f.npool] = t
                    f.npool += 1
                    k += 1
        f.nslots = k
        for i in range(root.g.nbone):
            f.pool[f.npool] = root.g.bone[i]
            f.npool += 1
        return root
    log = state.log
    at = max(i for i, e in enumerate(log) if e.kind == "hand_start")
    if log[at].data.get("hand") == 1 and state.rules.first_lead.startswith("highest_double"):
        # the hands chose the leader: the masks say it only when the seat led holding a double
        dealt = next((e.data["tiles"] for e in log[at:] if e.kind == "dealt" and e.seat == seat), [])
        if log[at].data.get("leader") != seat or not any(x.split("-")[0] == x.split("-")[1] for x in dealt):
            raise NotImplementedError("the first hand's leader, chosen by the hands, tells what the masks cannot")
    masks, pool = state.sampling_frame(seat)
    f.seat = seat
    for s in range(n):
        if s == seat:
            continue
        if len(masks[s]) != len(state.hands[s]):
            raise NotImplementedError(f"seat {s}'s hidden tiles do not match what the hand's log shows")
        for m in masks[s]:
            f.slot_seat[k] = s
            f.forbid[k] = <uint64_t>m
            k += 1
    f.nslots = k
    f.npool = len(pool)
    for i, t in enumerate(pool):
        f.pool[i] = t
    if f.npool - f.nslots != len(state.boneyard):
        raise NotImplementedError("the unseen tiles do not match the hidden hands and the boneyard")
    return root


cdef void check_infer(object infer, object heavy) except *:
    if not (0.0 <= infer <= 10.0 and 0.0 <= heavy <= 10.0):
        raise ValueError(f"infer and infer_heavy are between 0 and 10, not {infer!r} and {heavy!r}")


cdef inline void free_evidence(Frame* f) noexcept nogil:
    free(f.held)
    free(f.known)
    free(f.z)


cdef void load_evidence(object state, int seat, double infer, double heavy, Frame* f) except *:
    """The others' choices of this hand into ``f`` (``DominoState.choice_evidence``); freed by the caller."""
    cdef int d, x
    held, known, z = state.choice_evidence(seat, infer, heavy)
    f.ndec = len(held)
    f.held = <uint64_t*>malloc(max(f.ndec, 1) * sizeof(uint64_t))
    f.known = <double*>malloc(max(f.ndec, 1) * sizeof(double))
    f.z = <double*>malloc(max(f.ndec, 1) * 64 * sizeof(double))
    if f.held == NULL or f.known == NULL or f.z == NULL:
        raise MemoryError()
    for d in range(f.ndec):
        f.held[d] = <uint64_t>held[d]
        f.known[d] = known[d]
        for x in range(64):
            f.z[d * 64 + x] = z[d][x] if x < len(z[d]) else 0.0


def sample_world(state: object, seat: int, seed: int = 0, infer: float = 0.0, infer_heavy: float = 0.0
                 ) -> tuple[list[list[int]], list[int]]:
    """One world the native search may draw for ``seat`` (tile indices): every seat's hand and the boneyard
    (the next tile drawn last). Built from ``seat``'s view and ``seed`` alone; ``infer`` as for
    :func:`search` (the world picked by weight among the candidates the search weighs)."""
    check_infer(infer, infer_heavy)
    cdef Frame f
    cdef NativeDominoes root = frame_of(state, seat, &f)
    cdef uint64_t rng = mix_seed(seed)
    cdef Belief b
    cdef int bad
    b.n = 0
    b.seed = NULL
    b.cum = NULL
    try:
        if infer > 0 or infer_heavy > 0:
            load_evidence(state, seat, infer, infer_heavy, &f)
        if f.ndec > 0:
            bad = weigh_worlds(&root.g, &f, &b, BELIEF_WORLDS, &rng) < 0 or draw_believed(&root.g, &f, &b, &rng) < 0
        else:
            bad = draw_world(&root.g, &f, &rng) < 0
    finally:
        free_evidence(&f)
        free_belief(&b)
    if bad:
        raise NotImplementedError(f"no world fits what seat {seat} has seen")
    return root.hands(), root.boneyard()


# what this search takes beyond every native search's options (``SearchPolicy`` passes only these)
SEARCH_OPTIONS = frozenset({"hands_known", "infer", "infer_heavy", "opponent_model", "defend"})


def search(state: object, seat: int, iterations: int, time_limit: float, exploration: float = 0.7,
           horizon: int = 120, rollout_greedy: float = 0.8, seed: int = 0,
           omniscient: bool = False, reward_scale: float = 0.0, hands_known: bool = False,
           infer: float = 0.0, infer_heavy: float = 0.0, bint opponent_model=False, bint defend=False,
           bint play_for_points=False) -> dict[str, object]:
    """The search bot's SO-ISMCTS from ``state`` for ``seat`` (the seat to move) in C: ``iterations`` or
    ``time_limit`` seconds, whichever runs out first. Returns the chosen move's action id (carrying its true
    claim, as the search applies it), the iterations and rollouts done and the root's (id, visits, reward
    sum) per move. ``omniscient``: the ceiling's search, every world the true state (the hands and the
    boneyard known, only what is still to be dealt random); ``hands_known``: every hand known, the boneyard's
    order random. ``infer``: how sharply the others are assumed to prefer their higher-scoring moves (the
    weight of a move is exp(infer * its points)); the worlds are then weighed by how likely they make the
    others' past choices of this hand (0: drawn uniformly under the constraints); ``infer_heavy`` adds
    exp(infer_heavy * the tile's weight) to that model (players shed heavy tiles; the weight is the greedy
    tie-break's: pips, and a double's the set's top number again). ``opponent_model``: in the tree, the other
    seats move as in the rollouts (greedy with probability ``rollout_greedy``, else at random, with the hands the
    world gives them) instead of by their own statistics. ``defend``: the seat's own greedy rollout moves score
    most less the next seat's best reply (``defensive_pick``). ``reward_scale``: the points difference that the
    squashed reward of an unfinished game turns on (0: the search bot's default, a tenth of the target, at least
    5); ``play_for_points``: a finished game is rewarded the same way (its points, not 1 or 0 for the win).
    NotImplementedError for states and rules out of its scope (the Python search then runs)."""
    if iterations < 1 or time_limit <= 0:
        raise ValueError("a search needs at least one iteration and a positive time limit")
    if horizon < 1 or not 0.0 <= rollout_greedy <= 1.0:
        raise ValueError("the horizon is at least one move and rollout_greedy a probability")
    check_infer(infer, infer_heavy)
    cdef Frame f
    cdef NativeDominoes root = frame_of(state, seat, &f, omniscient, hands_known)
    cdef Rules* r = &root.box.r
    if root.g.over or root.g.turn != seat:
        raise NotImplementedError(f"seat {seat} is not the one to move")
    cdef double scale_ = (reward_scale if reward_scale > 0
                          else max(5.0, int(getattr(state.rules, "target", 100) or 100) / 10.0))
    cdef Tree t
    t.cap = 1024
    t.size = 0
    t.nodes = <Node*>malloc(t.cap * sizeof(Node))
    cdef int* path = <int*>malloc((horizon + 1) * sizeof(int))
    if t.nodes == NULL or path == NULL:
        free(t.nodes)
        free(path)
        raise MemoryError()
    new_node(&t, -1, -1, -1)
    cdef long its = min(iterations, 1 << 62), done, rollouts = 0
    cdef double deadline = now_seconds() + time_limit
    cdef Knobs k
    k.c = exploration
    k.greedy = rollout_greedy
    k.scale = scale_
    k.horizon = horizon
    k.model = opponent_model
    k.defend = defend
    k.points = play_for_points
    cdef uint64_t rng = mix_seed(seed)
    cdef int ch, mv, pts, draw = r.ntiles * r.slots, best = -1
    chosen = None
    try:
        if (infer > 0 or infer_heavy > 0) and not omniscient and not hands_known:
            load_evidence(state, seat, infer, infer_heavy, &f)
        with nogil:
            done = run_search(&root.g, r, &f, &t, path, its, deadline, &k, rng, &rollouts)
        if done < 0:
            raise NotImplementedError(f"no world fits what seat {seat} has seen (or no memory for the tree)")
        children = []
        ch = t.nodes[0].child
        while ch >= 0:
            if t.nodes[ch].actor == seat:
                mv = t.nodes[ch].move
                if mv < draw:
                    pts = move_points(&root.g, r, mv)
                    aid = mv * r.width + (pts + 1 if r.manual and pts > 0 else 0)
                else:
                    aid = r.play_stop + mv - draw
                children.append((aid, t.nodes[ch].visits, t.nodes[ch].reward))
                if best < 0 or (t.nodes[ch].visits, t.nodes[ch].reward) >= (t.nodes[best].visits,
                                                                             t.nodes[best].reward):
                    best = ch
                    chosen = aid
            ch = t.nodes[ch].sibling
    finally:
        free(t.nodes)
        free(path)
        free_evidence(&f)
    children.reverse()  # in the order the moves were first tried
    return {"action": chosen, "iterations": done, "rollouts": rollouts, "children": children}

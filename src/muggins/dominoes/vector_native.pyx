# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Many domino games stepped in C for :class:`muggins.dominoes.vector.DominoVectorEnv`
(``muggins.rl.vector_env``).

Every game is a :c:type:`Game` of the native engine (:mod:`muggins.dominoes.native`, whose ``native.pxd``
declares it). A step applies each game's action given as a compact pair (:mod:`muggins.rl.compact`: a move,
then the amount it announces), lets the opponents (random, greedy or the search bot at a small budget, as the bots of
those names with perfect attention: true claims, every missed point called) act inside C, deals a new game where one ended, and
writes each observation (:class:`muggins.dominoes.observation.DominoEncoder`'s vector, computed from the C
data) and mask of legal moves into NumPy arrays made once. The loop over games runs without the GIL, so
chunks of games can be stepped on several threads at once.

The turns are those of the PettingZoo environment (:mod:`muggins.rl.pettingzoo_env`): an open muggins window
asks each seat that may call or claim late, from the scorer on, before the seat the game waits for; a seat so
asked may "let it go", the last move of the head.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

import numpy as np

from muggins.core.splitmix cimport splitmix_next
from muggins.core.vector_out cimport Out, bind_out, next_step_deal, settle
from muggins.dominoes.native cimport (MAXMOVES, MAXTILES, TABLE, K_NONDOUBLE, Frame, Game, Knobs, Node,
                                      NativeDominoes, Rules, Tree, _RulesBox, apply_regular, call_muggins,
                                      count_after, late_claim, new_node, regular, rules_box, run_search,
                                      start_hand)

cdef enum:
    LEARNER = -1
    P_RANDOM = 0
    P_GREEDY = 1
    P_SEARCH = 2
    SEARCH_HORIZON = 120  # moves of a search's iteration at most (the search bot's horizon)

#: the opponents played in C, by bot name
POLICIES = {"random": P_RANDOM, "greedy": P_GREEDY, "search": P_SEARCH}


def search_unsupported(rules: object, num_players: int) -> str | None:
    """Why the ``search`` opponent cannot play these rules in C (what the native search leaves out), or None."""
    from muggins.dominoes.native import _SEARCH_FIXED

    for name, v in _SEARCH_FIXED.items():
        if getattr(rules, name) != v:
            return f"{name}={getattr(rules, name)!r}"
    if rules.partnerships and num_players == 4:
        return "partnerships"
    return None


cdef struct Enc:
    # where each field of the observation starts (DominoEncoder's layout) and its scales
    int size, n, hand, layout, ends, values, count, sizes, boneyard, drawable, partners, lead
    int places, show_count, drawing
    double target
    # every scaled number a field can hold, worked out once as the encoder works it (a double division, then
    # float32): an end's value / top, places showing a value / 4, tiles / the most in a hand, tiles / the
    # boneyard after the deal, the count / the largest count
    float value_of[16]
    float quarter[MAXTILES]
    float in_hand[MAXTILES]
    float bone[MAXTILES]
    float count_of[TABLE]


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define MUGGINS_CTZ(x) __builtin_ctzll(x)
    #define MUGGINS_POPCOUNT(x) __builtin_popcountll(x)
    #else
    static int MUGGINS_CTZ(unsigned long long x) { int i = 0; while (!((x >> i) & 1)) i++; return i; }
    static int MUGGINS_POPCOUNT(unsigned long long x) { int c = 0; while (x) { x &= x - 1; c++; } return c; }
    #endif
    """
    int popcount64 "MUGGINS_POPCOUNT" (uint64_t x) noexcept nogil
    int lowbit "MUGGINS_CTZ" (uint64_t x) noexcept nogil


cdef inline int to_act_mask(Game* g, Rules* r) noexcept nogil:
    """The seats that may act (a bit each): the one waited for, a window's callers and its late claimer."""
    cdef int s, m
    if g.over:
        return 0
    m = 1 << g.turn
    if g.w_open:
        for s in range(r.n):
            if r.side[s] != r.side[g.w_scorer]:
                m |= 1 << s
        if g.w_may:
            m |= 1 << g.w_scorer
    return m


cdef void encode(Game* g, Rules* r, Enc* e, int seat, float* out) noexcept nogil:
    """``DominoEncoder.encode(state, seat)`` from the C data (equal, number for number)."""
    cdef int n = e.n, i, s, k, v, t, node, hi, lo, acts
    cdef int values[16]
    cdef uint64_t m
    memset(out, 0, e.size * sizeof(float))
    out[seat] = 1.0
    acts = to_act_mask(g, r)
    for s in range(n):
        if acts >> s & 1:
            out[n + (s - seat + n) % n] = 1.0
    for i in range(n):
        s = (seat + i) % n
        out[2 * n + i] = <float>(g.scores[r.side[s]] / e.target)
    if g.w_open:
        out[3 * n] = 1.0
        out[3 * n + 1] = 1.0 if g.w_claimed else 0.0
        out[3 * n + 2 + (g.w_scorer - seat + n) % n] = 1.0
    out[4 * n + 2] = 1.0 if g.over else 0.0
    m = g.hand[seat]
    while m:
        t = lowbit(m)
        m &= m - 1
        out[e.hand + t] = 1.0
    for node in range(g.nnodes):
        hi = g.v0[node]
        lo = g.v1[node]
        if lo > hi:
            hi, lo = lo, hi
        out[e.layout + hi * (hi + 1) // 2 + lo] = 1.0
    for v in range(r.top + 1):
        values[v] = 0
    for k in range(g.nplaces):
        v = g.pval[k]
        values[v] += 1
        if k < e.places:
            out[e.ends + 3 * k] = 1.0
            out[e.ends + 3 * k + 1] = e.value_of[v]
            out[e.ends + 3 * k + 2] = 0.0 if g.kind[g.pnode[k]] == K_NONDOUBLE else 1.0
    for v in range(r.top + 1):
        out[e.values + v] = e.quarter[values[v]]
    if e.show_count:
        out[e.count] = e.count_of[g.count]
    for i in range(n):
        s = (seat + i) % n
        out[e.sizes + i] = e.in_hand[popcount64(g.hand[s])]
        out[e.partners + i] = 1.0 if r.side[s] == r.side[seat] else 0.0
    out[e.boneyard] = e.bone[g.nbone]
    if e.drawing:
        out[e.drawable] = e.bone[max(0, g.nbone - r.reserve)]
    out[e.lead] = 1.0 if g.lead_phase else 0.0


cdef Enc make_enc(object rules, int n) except *:
    """The layout of ``DominoEncoder(rules, n)`` for :func:`encode`."""
    from muggins.dominoes.observation import DominoEncoder

    enc = DominoEncoder(rules, n)
    cdef Enc e
    e.size = enc.size
    e.n = n
    e.hand = enc.s_hand
    e.layout = enc.s_layout
    e.ends = enc.s_ends
    e.values = enc.s_values
    e.count = enc.s_count
    e.sizes = enc.s_sizes
    e.boneyard = enc.s_boneyard
    e.drawable = enc.s_drawable
    e.partners = enc.s_partners
    e.lead = enc.s_lead
    e.places = enc.places
    e.show_count = rules.claims == "auto"
    e.drawing = rules.draw != "none"
    e.target = enc.target
    cdef double top = enc.top, most_in_hand = enc.most_in_hand, boneyard0 = enc.boneyard0
    cdef double most_count = enc.most_count
    cdef int k
    for k in range(16):
        e.value_of[k] = <float>(k / top)
    for k in range(MAXTILES):
        e.quarter[k] = <float>min(1.0, k / 4.0)
        e.in_hand[k] = <float>min(1.0, k / most_in_hand)
        e.bone[k] = <float>min(1.0, k / boneyard0)
    for k in range(TABLE):
        e.count_of[k] = <float>min(1.0, k / most_count)
    return e


def encode_native(game: NativeDominoes, seat: int) -> np.ndarray:
    """The observation of ``seat`` in the native ``game``, computed in C: equal to
    ``DominoEncoder(rules, n).encode(state, seat)`` of the same position."""
    cdef Rules* r = &game.box.r
    if not 0 <= seat < r.n:
        raise ValueError(f"there is no seat {seat!r}; seats are 0 to {r.n - 1}")
    cdef Enc e = make_enc(game.rules, r.n)
    out = np.zeros(e.size, dtype=np.float32)
    cdef float[::1] o = out
    encode(&game.g, r, &e, seat, &o[0])
    return out


cdef inline int points_of(Game* g, Rules* r, int mv) noexcept nogil:
    """The points the play ``mv`` (tile x slot) makes now."""
    return r.table[count_after(g, r, mv // r.slots, mv % r.slots - 1)]


cdef inline int below(uint64_t* rng, int k) noexcept nogil:
    return <int>(splitmix_next(rng) % <uint64_t>k)


cdef int greedy_choice(Game* g, Rules* r, int* moves, int nm) noexcept nogil:
    """The greedy bot's move: most points now, then the heaviest shed (pips, a double's the set's top number
    again), then chance; a draw or pass only when it is all."""
    cdef int i, t, key, best = -1, ties = 0, pick = 0, draw = r.ntiles * r.slots
    for i in range(nm):
        if moves[i] >= draw:
            continue
        t = moves[i] // r.slots
        key = points_of(g, r, moves[i]) * 4096 + r.hi[t] + r.lo[t] + (r.top if r.hi[t] == r.lo[t] else 0)
        if key > best:
            best = key
            ties = 1
            pick = i
        elif key == best:
            ties += 1
            if below(&g.rng, ties) == 0:
                pick = i
    return pick


cdef int search_choice(Game* g, Rules* r, const Knobs* k, long iterations, int seat, int* moves,
                       int nm) noexcept nogil:
    """The search bot's move (its native SO-ISMCTS, ``iterations`` iterations, no clock) from what ``seat``
    sees: every tile it has not seen is as likely in any hidden hand as in the boneyard (the worlds are not
    narrowed by the others' passes and draws). The most visited move; greedy's when the search cannot run."""
    cdef Frame f
    cdef Tree t
    cdef int path[SEARCH_HORIZON + 1]
    cdef int s, i, ch, best = -1, pick = -1
    cdef uint64_t m
    cdef long rollouts = 0, done
    f.seat = seat
    f.omniscient = 0
    f.ndec = 0
    f.held = NULL
    f.known = NULL
    f.z = NULL
    f.nslots = 0
    f.npool = 0
    for s in range(r.n):
        if s == seat:
            continue
        m = g.hand[s]
        while m:
            i = lowbit(m)
            m &= m - 1
            f.slot_seat[f.nslots] = s
            f.forbid[f.nslots] = 0
            f.nslots += 1
            f.pool[f.npool] = i
            f.npool += 1
    for i in range(g.nbone):
        f.pool[f.npool] = g.bone[i]
        f.npool += 1
    t.cap = 256
    t.size = 0
    t.nodes = <Node*>malloc(t.cap * sizeof(Node))
    if t.nodes == NULL:
        return greedy_choice(g, r, moves, nm)
    new_node(&t, -1, -1, -1)
    done = run_search(g, r, &f, &t, path, iterations, 1e300, k, splitmix_next(&g.rng), &rollouts)
    if done > 0:
        ch = t.nodes[0].child
        while ch >= 0:
            if t.nodes[ch].actor == seat and (best < 0 or t.nodes[ch].visits > t.nodes[best].visits or (
                    t.nodes[ch].visits == t.nodes[best].visits and t.nodes[ch].reward >= t.nodes[best].reward)):
                best = ch
            ch = t.nodes[ch].sibling
        if best >= 0:
            for i in range(nm):
                if moves[i] == t.nodes[best].move:
                    pick = i
    free(t.nodes)
    return pick if pick >= 0 else greedy_choice(g, r, moves, nm)


cdef inline int optional_seats(Game* g, Rules* r, int declined) noexcept nogil:
    """The seats asked about the open window before the game goes on (``MugginsAECEnv.optional_seats``)."""
    return to_act_mask(g, r) & ~(1 << g.turn) & ~declined


cdef int next_actor(Game* g, Rules* r, int declined) noexcept nogil:
    """The seat to act next (``MugginsAECEnv._next_seat``); -1 once the game is over."""
    cdef int opt, s, k, best = -1, best_k = 99
    if g.over:
        return -1
    opt = optional_seats(g, r, declined)
    if opt:
        for s in range(r.n):
            if opt >> s & 1:
                k = (s - g.w_scorer + r.n) % r.n
                if k < best_k:
                    best_k = k
                    best = s
        return best
    return g.turn


cdef void bot_act(Game* g, Rules* r, int* declined, int seat, int policy, const Knobs* k,
                  long iterations) noexcept nogil:
    """One action of a bot with perfect attention: call a window with missed points, claim late what it may
    (a muggable bonus), let any other window go, else move by ``policy`` claiming the move's true points."""
    cdef int moves[MAXMOVES]
    cdef int nm, i, mv, claim = -1
    if g.w_open and g.w_missed > 0 and r.side[seat] != r.side[g.w_scorer]:
        call_muggins(g, r, seat, g.w_missed)
        declined[0] = 0
        return
    if g.w_open and seat == g.w_scorer and g.w_may and min(g.w_missed, g.w_late) > 0:
        late_claim(g, r, seat, min(g.w_missed, g.w_late))  # a bonus left to claim late
        declined[0] = 0
        return
    if seat != g.turn:
        declined[0] |= 1 << seat
        return
    nm = regular(g, r, seat, moves)
    if nm == 1:
        i = 0
    elif policy == P_GREEDY:
        i = greedy_choice(g, r, moves, nm)
    elif policy == P_SEARCH:
        i = search_choice(g, r, k, iterations, seat, moves, nm)
    else:
        i = below(&g.rng, nm)
    mv = moves[i]
    if r.manual and mv < r.ntiles * r.slots:
        claim = points_of(g, r, mv)
        if claim == 0:
            claim = -1
    apply_regular(g, r, seat, mv, claim, 0)
    declined[0] = 0


cdef struct Core:
    Rules* r
    Enc e
    Game* games
    int policy[4]       # per seat: LEARNER, P_RANDOM or P_GREEDY
    int learner         # the learning seat; -1: every seat learns
    int moves, amounts, draw, mug, claim, letgo
    int win, same_step
    double illegal
    Knobs knobs            # the search opponent's constants (the search bot's defaults)
    long search_iterations  # and its iterations a move
    Out o               # the arrays written, and each game's bookkeeping (muggins.core.vector_out)


cdef void write_mask(Core* c, Game* g, int declined, int seat, int8_t* m) noexcept nogil:
    cdef int moves[MAXMOVES]
    cdef int nm, k
    cdef Rules* r = c.r
    memset(m, 0, c.moves)
    if g.over or seat < 0:
        return
    nm = regular(g, r, seat, moves)
    for k in range(nm):
        m[moves[k]] = 1
    if g.w_open:
        if r.side[seat] != r.side[g.w_scorer]:
            m[c.mug] = 1
        elif seat == g.w_scorer and g.w_may:
            m[c.claim] = 1
        if optional_seats(g, r, declined) >> seat & 1:
            m[c.letgo] = 1


cdef int apply_choice(Core* c, Game* g, int* declined, int seat, int64_t move, int64_t amount) noexcept nogil:
    """Apply the compact action (``move``, ``amount``) for ``seat``; 0 (and nothing changed) if illegal."""
    cdef int moves[MAXMOVES]
    cdef int nm, k, claim
    cdef Rules* r = c.r
    if g.over or move < 0 or move >= c.moves or amount < 0 or amount >= c.amounts:
        return 0
    if move < c.mug:  # a regular move
        nm = regular(g, r, seat, moves)
        for k in range(nm):
            if moves[k] == move:
                break
        else:
            return 0
        claim = <int>amount - 1 if r.manual and move < c.draw else -1
        apply_regular(g, r, seat, <int>move, claim, 0)
        declined[0] = 0
        return 1
    if move == c.mug:
        if not g.w_open or r.side[seat] == r.side[g.w_scorer]:
            return 0
        call_muggins(g, r, seat, <int>amount - 1)
        declined[0] = 0
        return 1
    if move == c.claim:
        if not g.w_open or seat != g.w_scorer or not g.w_may or amount < 1:
            return 0
        late_claim(g, r, seat, <int>amount - 1)
        declined[0] = 0
        return 1
    if not optional_seats(g, r, declined[0]) >> seat & 1:  # let it go
        return 0
    declined[0] |= 1 << seat
    return 1


cdef int play_bots(Core* c, Game* g, int* declined) noexcept nogil:
    """Let the bots act until a learning seat is to act (returned) or the game is over (-1)."""
    cdef int s
    while True:
        s = next_actor(g, c.r, declined[0])
        if s < 0 or c.policy[s] == LEARNER:
            return s
        bot_act(g, c.r, declined, s, c.policy[s], &c.knobs, c.search_iterations)


cdef void deal(Core* c, int i, Game* template) noexcept nogil:
    """A new game in slot ``i``, played on to the first decision of a learning seat."""
    cdef Game* g = &c.games[i]
    cdef int s
    while True:
        g[0] = template[0]
        g.rng = splitmix_next(&c.o.streams[i])
        g.hand_no = 0
        start_hand(g, c.r)
        c.o.declined[i] = 0
        if play_bots(c, g, &c.o.declined[i]) >= 0:
            break
    for s in range(c.r.n):
        c.o.seen[4 * i + s] = g.scores[c.r.side[s]]


cdef void observe(Core* c, int i, float* obs, int8_t* mask) noexcept nogil:
    cdef Game* g = &c.games[i]
    cdef int s = next_actor(g, c.r, c.o.declined[i]), seat = s, k
    if seat < 0:
        seat = c.learner if c.learner >= 0 else 0
    encode(g, c.r, &c.e, seat, obs)
    for k in range(c.r.n):  # a score past the target, or below minus the target, is clipped
        if obs[2 * c.r.n + k] > 1.0:
            obs[2 * c.r.n + k] = 1.0
        elif obs[2 * c.r.n + k] < -1.0:
            obs[2 * c.r.n + k] = -1.0
    write_mask(c, g, c.o.declined[i], s, mask)
    c.o.seat_out[i] = seat


cdef void reset_one(Core* c, int i, Game* template) noexcept nogil:
    deal(c, i, template)
    c.o.pending[i] = 0
    observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * c.moves)


cdef double outcome(Core* c, Game* g, int seat) noexcept nogil:
    """+1 for a winner, -1 for another seat, 0 when nobody won."""
    if not g.winners:
        return 0.0
    return 1.0 if g.winners >> c.r.side[seat] & 1 else -1.0


cdef void step_one(Core* c, int i, int64_t move, int64_t amount, Game* template) noexcept nogil:
    cdef Game* g = &c.games[i]
    cdef Rules* r = c.r
    cdef int n = r.n, s, actor, ok
    cdef int before[4]
    cdef int after[4]
    cdef double result[4]
    if next_step_deal(&c.o, i, n):
        reset_one(c, i, template)
        return
    actor = next_actor(g, r, c.o.declined[i])
    for s in range(n):
        before[s] = g.scores[r.side[s]]
    ok = actor >= 0 and apply_choice(c, g, &c.o.declined[i], actor, move, amount)
    if ok and c.learner >= 0:
        play_bots(c, g, &c.o.declined[i])
    for s in range(n):
        after[s] = g.scores[r.side[s]]
        result[s] = outcome(c, g, s)
    settle(&c.o, i, n, c.learner, actor, ok, g.over, c.win, c.illegal, before, after, result)
    if not c.o.term[i]:
        observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * c.moves)
        return
    if c.same_step:
        observe(c, i, c.o.final_obs + <Py_ssize_t>i * c.e.size, c.o.final_mask + <Py_ssize_t>i * c.moves)
        reset_one(c, i, template)
        return
    observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * c.moves)
    if not ok:  # the game goes on, but the episode is over: no move is offered
        memset(c.o.mask + <Py_ssize_t>i * c.moves, 0, c.moves)
    c.o.pending[i] = 1


cdef class VectorCore:
    """The C state of :class:`muggins.dominoes.vector.DominoVectorEnv`: ``num_envs`` games and the arrays they
    write (see the module docstring). Made and driven by that class."""

    cdef Core c
    cdef Game template
    cdef _RulesBox box
    cdef object rules
    cdef readonly int num_envs
    cdef tuple _keep           # the arrays whose memory the core writes
    cdef object _games_buf

    def __init__(self, rules: object, num_players: int, num_envs: int, policies: list[int], learner: int,
                 moves: int, amounts: int, draw: int, mug: int, claim: int, win: bool, illegal_reward: float,
                 same_step: bool, arrays: dict, search_iterations: int = 64) -> None:
        cdef NativeDominoes t = NativeDominoes.new(rules, num_players, 0)
        self.box = rules_box(rules, num_players)
        self.rules = rules
        self.template = t.g
        self.num_envs = num_envs
        cdef Core* c = &self.c
        c.r = &self.box.r
        if c.r.ntiles * c.r.slots != draw:
            raise RuntimeError("the compact numbering and the native engine's disagree on the plays")
        c.e = make_enc(rules, num_players)
        for s in range(4):
            c.policy[s] = policies[s] if s < num_players else LEARNER
        c.learner = learner
        c.moves = moves
        c.amounts = amounts
        c.draw = draw
        c.mug = mug
        c.claim = claim
        c.letgo = moves - 1
        c.win = bool(win)
        c.same_step = bool(same_step)
        c.illegal = illegal_reward
        c.search_iterations = search_iterations
        c.knobs.c = 0.7
        c.knobs.greedy = 0.8
        c.knobs.scale = max(5.0, int(getattr(rules, "target", 100) or 100) / 10.0)
        c.knobs.horizon = SEARCH_HORIZON
        c.knobs.model = 0
        c.knobs.defend = 0
        c.knobs.points = 0
        # one record per game, kept in a bytes-like buffer numpy owns (freed with this object)
        self._games_buf = np.zeros(num_envs * sizeof(Game), dtype=np.uint8)
        cdef uint8_t[::1] gb = self._games_buf
        c.games = <Game*>&gb[0]
        self._keep = bind_out(&c.o, arrays, num_envs, learner < 0, same_step)

    def reset(self, seeds: object, lo: int, hi: int) -> None:
        """Deal new games in slots ``lo`` to ``hi - 1``, each seeding its stream of deals from ``seeds[i]``
        (a uint64 array), and observe them."""
        cdef uint64_t[::1] sd = seeds
        cdef int i, a = lo, b = hi
        for i in range(a, b):
            self.c.o.streams[i] = sd[i]
        with nogil:
            for i in range(a, b):
                reset_one(&self.c, i, &self.template)

    def step(self, actions: object, lo: int, hi: int) -> None:
        """Step games ``lo`` to ``hi - 1`` with ``actions`` (int64, one row (move, amount) per game),
        without the GIL."""
        cdef int64_t[:, ::1] act = actions
        cdef int i, a = lo, b = hi
        if act.shape[0] != self.num_envs or act.shape[1] != 2:
            raise ValueError(f"actions are {self.num_envs} rows of (move, amount)")
        with nogil:
            for i in range(a, b):
                step_one(&self.c, i, act[i, 0], act[i, 1], &self.template)

    def game(self, i: int) -> NativeDominoes:
        """A copy of game ``i`` as a :class:`~muggins.dominoes.native.NativeDominoes` (no event log)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"there is no game {i!r}; games are 0 to {self.num_envs - 1}")
        cdef NativeDominoes s = NativeDominoes.__new__(NativeDominoes)
        s.g = self.c.games[i]
        s.box = self.box
        s.rules = self.rules
        return s

    def declined(self, i: int) -> int:
        """The seats (a bit each) of game ``i`` that let its open window go."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"there is no game {i!r}; games are 0 to {self.num_envs - 1}")
        return self.c.o.declined[i]

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Many cribbage games stepped in C for :class:`muggins.cards.cribbage.vector.CribbageVectorEnv`
(``muggins.rl.vector_env("cribbage", ...)``).

Every game is a :c:type:`Game` of the native engine (:mod:`muggins.cards.cribbage.native`, whose
``native.pxd`` declares it). A step applies each game's action given as a compact pair
(:mod:`muggins.rl.compact`: a move - a discard, a card, go, a count, the muggins call, the late claim or "let
it go" - then the amount it announces), lets the opponents (random or greedy, with perfect attention: true
claims, every missed point called; or the search bot at a small budget, the native search,
:func:`muggins.cards.cribbage.native.search`, its worlds drawn from a frame built in C from what its seat's view
shows) act inside C, deals
a new game where one ended, and writes each observation
(:class:`muggins.cards.cribbage.observation.CribbageEncoder`'s vector, computed from the C data) and mask of
legal moves into NumPy arrays made once. The loop over games runs without the GIL, so chunks of games can
be stepped on several threads at once.

The turns are those of the PettingZoo environment (:mod:`muggins.rl.pettingzoo_env`): while several seats
lay away at once, the lowest seat still to discard acts first; an open muggins window asks each seat that
may call or claim late and that the game does not wait for, from the scorer on, before the game goes on; a
seat so asked may "let it go", the last move of the head.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t
from libc.string cimport memset

import numpy as np

from muggins.core.bits cimport lowbit, popcount
from muggins.core.splitmix cimport splitmix_next
from muggins.core.vector_out cimport Out, bind_out, next_step_deal, settle
from muggins.cards.cribbage.native cimport (CLAIM_NONE, ID_COUNT_HAND, ID_GO, ID_PLAY, PH_DISCARD, PH_OVER,
                                            POLICY_GREEDY, POLICY_RANDOM, Game, NativeCribbage, apply_legal,
                                            call_muggins, choose, choose_mixed, late_claim, legal_check, new_game,
                                            own_moves, search_move, set_rules, true_points)

cdef enum:
    LEARNER = -1
    MAX_OWN = 64    # the most own moves of a seat (15 discards of six cards)
    P_SEARCH = 8          # the search bot (the native engine's policies are 0 and 1)
    SEARCH_HORIZON = 120  # moves of a search's iteration at most (the search bot's horizon)

#: the opponents played in C, by bot name
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "search": P_SEARCH}
# the search bot's constants (its defaults): UCB1's exploration, the rollouts' greedy share
cdef double SEARCH_EXPLORATION = 0.7
cdef double SEARCH_ROLLOUT_GREEDY = 0.8


cdef struct Enc:
    # where each field of the observation starts (CribbageEncoder's layout) and its scales
    int size, n, hand, discards, starter, pile, series, shown, crib, count, phase, dealer, last, discarded
    int gone, sizes, crib_size, partners
    double target, dealt


cdef struct Moves:
    # the compact move head: the discards (internal ids), then play, go, count (hand, crib), muggins, claim
    int play, go, count, mug, claim, letgo, moves


cdef inline int side(Game* g, int seat) noexcept nogil:
    return seat % g.nsides


cdef inline int waiting(Game* g) noexcept nogil:
    """The seats the game waits for (a bit each)."""
    if g.phase == PH_OVER:
        return 0
    if g.phase == PH_DISCARD:
        return g.to_discard
    return 1 << g.turn


cdef inline int to_act_mask(Game* g) noexcept nogil:
    """The seats that may act: those waited for, a window's callers (the other sides) and its late claimer."""
    cdef int m = waiting(g), s
    if g.w_open and g.phase != PH_OVER:
        for s in range(g.nplayers):
            if side(g, s) != g.w_side:
                m |= 1 << s
        if g.w_may:
            m |= 1 << g.w_scorer
    return m


cdef inline void set_cards(float* out, uint64_t m) noexcept nogil:
    while m:
        out[lowbit(m)] = 1.0
        m &= m - 1


cdef void encode(Game* g, Enc* e, int seat, float* out) noexcept nogil:
    """``CribbageEncoder.encode(state, seat)`` from the C data (equal, number for number)."""
    cdef int n = e.n, i, s, acts
    memset(out, 0, e.size * sizeof(float))
    out[seat] = 1.0
    acts = to_act_mask(g)
    for i in range(n):
        s = (seat + i) % n
        if acts >> s & 1:
            out[n + i] = 1.0
        out[2 * n + i] = <float>(g.scores[side(g, s)] / e.target)
        out[e.discarded + i] = 0.0 if g.to_discard >> s & 1 else 1.0
        out[e.sizes + i] = <float>min(1.0, popcount(g.held[s]) / e.dealt)
        out[e.partners + i] = 1.0 if side(g, s) == side(g, seat) else 0.0
        if g.gone >> s & 1:
            out[e.gone + i] = 1.0
    if g.w_open:
        out[3 * n] = 1.0
        out[3 * n + 1] = 0.0 if g.w_claimed == CLAIM_NONE else 1.0
        out[3 * n + 2 + (g.w_scorer - seat + n) % n] = 1.0
    out[4 * n + 2] = 1.0 if g.phase == PH_OVER else 0.0
    set_cards(out + e.hand, g.held[seat])
    set_cards(out + e.discards, g.discards[seat])
    if g.starter >= 0:
        out[e.starter + g.starter] = 1.0
    set_cards(out + e.pile, g.pile)
    set_cards(out + e.series, g.series)
    set_cards(out + e.shown, g.shown)
    if g.crib_shown:
        set_cards(out + e.crib, g.crib)
    out[e.count] = <float>min(1.0, g.count / 31.0)
    out[e.phase + 1 + g.phase] = 1.0  # the encoder's phases: deal, discard, play, show, over
    out[e.dealer + (g.dealer - seat + n) % n] = 1.0
    if g.last >= 0:
        out[e.last + (g.last - seat + n) % n] = 1.0
    out[e.crib_size] = <float>min(1.0, popcount(g.crib) / 4.0)


cdef Enc make_enc(object rules, int n) except *:
    """The layout of ``CribbageEncoder(rules, n)`` for :func:`encode`."""
    from muggins.cards.cribbage.observation import PHASES, CribbageEncoder

    if PHASES != ("deal", "discard", "play", "show", "over"):
        raise RuntimeError("the encoder's phases and the native engine's disagree")
    enc = CribbageEncoder(rules, n)
    cdef Enc e
    e.size = enc.size
    e.n = n
    e.hand, e.discards, e.starter = enc.s_hand, enc.s_discards, enc.s_starter
    e.pile, e.series, e.shown, e.crib = enc.s_pile, enc.s_series, enc.s_shown, enc.s_crib
    e.count, e.phase, e.dealer, e.last = enc.s_count, enc.s_phase, enc.s_dealer, enc.s_last
    e.discarded, e.gone, e.sizes = enc.s_discarded, enc.s_gone, enc.s_sizes
    e.crib_size, e.partners = enc.s_crib_size, enc.s_partners
    e.target = enc.target
    e.dealt = enc.dealt
    return e


cdef Moves make_moves(int discards, bint manual):
    cdef Moves m
    m.play = discards
    m.go = discards + 52
    m.count = discards + 53
    m.mug = discards + 55 if manual else -2
    m.claim = discards + 56 if manual else -2
    m.moves = discards + (57 if manual else 55)
    m.letgo = m.moves
    return m


def encode_native(game: NativeCribbage, seat: int) -> np.ndarray:
    """The observation of ``seat`` in the native ``game``, computed in C: equal to
    ``CribbageEncoder(rules, n).encode(state, seat)`` of the same position."""
    cdef Game* g = &game.g
    if not 0 <= seat < g.nplayers:
        raise ValueError(f"there is no seat {seat!r}; seats are 0 to {g.nplayers - 1}")
    cdef Enc e = make_enc(game.rules, g.nplayers)
    out = np.zeros(e.size, dtype=np.float32)
    cdef float[::1] o = out
    encode(g, &e, seat, &o[0])
    return out


cdef inline int optional_seats(Game* g, int declined) noexcept nogil:
    """The seats asked about the open window before the game goes on (``MugginsAECEnv.optional_seats``)."""
    return to_act_mask(g) & ~waiting(g) & ~declined


cdef int next_actor(Game* g, int declined) noexcept nogil:
    """The seat to act next (``MugginsAECEnv._next_seat``); -1 once the game is over."""
    cdef int opt, k, n = g.nplayers
    if g.phase == PH_OVER:
        return -1
    opt = optional_seats(g, declined)
    if opt:
        for k in range(n):  # from the scorer on
            if opt >> ((g.w_scorer + k) % n) & 1:
                return (g.w_scorer + k) % n
    return lowbit(<uint64_t>waiting(g))


cdef void move(Game* g, int seat, int internal, int claim) noexcept nogil:
    """Seat ``seat``'s legal move (an internal id) announcing ``claim`` (CLAIM_NONE: nothing)."""
    g.claim = claim
    apply_legal(g, seat, internal)
    g.claim = CLAIM_NONE


cdef struct Core:
    Enc e
    Moves m
    Game* games
    int n
    int policy[4]       # per seat: LEARNER, POLICY_RANDOM, POLICY_GREEDY or P_SEARCH
    long search_iterations  # the search opponent's iterations a move
    double scale        # and the points difference its squashed reward turns on
    int learner         # the learning seat; -1: every seat learns
    int amounts
    int win, same_step
    double illegal
    Out o               # the arrays written, and each game's bookkeeping (muggins.core.vector_out)


cdef int search_choice(Core* c, Game* g, int seat) noexcept nogil:
    """The search bot's move for ``seat`` (waited for); greedy's when the move is forced or the search cannot
    run."""
    cdef int ids[MAX_OWN]
    cdef int a = -1
    if own_moves(g, seat, ids, 1, MAX_OWN) > 1:
        a = search_move(g, seat, c.search_iterations, SEARCH_EXPLORATION, SEARCH_HORIZON, SEARCH_ROLLOUT_GREEDY,
                        c.scale)
    return a if a >= 0 else choose_mixed(g, seat, 1.0)


cdef void bot_act(Core* c, Game* g, int* declined, int seat, int policy) noexcept nogil:
    """One action of a bot with perfect attention: call a window with missed points, claim late what it may,
    let any other window go, else move by ``policy`` announcing the move's true points: random, any legal
    move; greedy, the registry's ``greedy`` bot's choice (the most points now, ties at random: any discard,
    which scores nothing now, and the card pegging most); search, :func:`search_choice`."""
    cdef int a, claim = CLAIM_NONE, late
    if g.w_open and g.w_missed > 0 and side(g, seat) != g.w_side:
        call_muggins(g, seat, g.w_missed)
        declined[0] = 0
        return
    late = min(g.w_missed, g.w_late)
    if g.w_open and seat == g.w_scorer and g.w_may and late > 0:
        late_claim(g, seat, late)
        declined[0] = 0
        return
    if not waiting(g) >> seat & 1:
        declined[0] |= 1 << seat
        return
    if policy == P_SEARCH:
        a = search_choice(c, g, seat)
    else:
        a = choose_mixed(g, seat, 1.0) if policy == POLICY_GREEDY else choose(g, seat, POLICY_RANDOM)
    if g.manual and a >= ID_PLAY:
        claim = true_points(g, seat, a)
        if claim == 0:
            claim = CLAIM_NONE
    move(g, seat, a, claim)
    declined[0] = 0


cdef inline int compact_move(Moves* m, int internal) noexcept nogil:
    """The move head's number of an internal id."""
    if internal < ID_PLAY:
        return internal
    if internal < ID_GO:
        return m.play + internal - ID_PLAY
    if internal == ID_GO:
        return m.go
    return m.count + internal - ID_COUNT_HAND


cdef void write_mask(Moves* mv, Game* g, int declined, int seat, int8_t* out) noexcept nogil:
    cdef int ids[MAX_OWN]
    cdef int k, n
    memset(out, 0, mv.moves + 1)
    if g.phase == PH_OVER or seat < 0:
        return
    n = own_moves(g, seat, ids, 1, MAX_OWN)
    for k in range(n):
        out[compact_move(mv, ids[k])] = 1
    if g.w_open:
        if side(g, seat) != g.w_side:
            out[mv.mug] = 1
        elif seat == g.w_scorer and g.w_may:
            out[mv.claim] = 1
        if optional_seats(g, declined) >> seat & 1:
            out[mv.letgo] = 1


cdef int apply_choice(Core* c, Game* g, int* declined, int seat, int64_t mv, int64_t amount) noexcept nogil:
    """Apply the compact action (``mv``, ``amount``) for ``seat``; 0 (and nothing changed) if illegal."""
    cdef Moves* m = &c.m
    cdef int internal
    if g.phase == PH_OVER or mv < 0 or mv > m.moves or amount < 0 or amount >= c.amounts:
        return 0
    if mv < m.mug or (m.mug < 0 and mv < m.moves):  # a discard, a card, go or a count
        if mv < m.play:
            internal = <int>mv
        elif mv < m.go:
            internal = ID_PLAY + <int>mv - m.play
        elif mv == m.go:
            internal = ID_GO
        else:
            internal = ID_COUNT_HAND + <int>mv - m.count
        if legal_check(g, seat, internal):
            return 0
        move(g, seat, internal, <int>amount - 1 if g.manual and mv >= m.play and amount > 0 else CLAIM_NONE)
        declined[0] = 0
        return 1
    if mv == m.mug:
        if not g.w_open or side(g, seat) == g.w_side:
            return 0
        call_muggins(g, seat, <int>amount - 1)
        declined[0] = 0
        return 1
    if mv == m.claim:
        if not g.w_open or seat != g.w_scorer or not g.w_may or amount < 1:
            return 0
        late_claim(g, seat, <int>amount - 1)
        declined[0] = 0
        return 1
    if not optional_seats(g, declined[0]) >> seat & 1:  # let it go
        return 0
    declined[0] |= 1 << seat
    return 1


cdef int play_bots(Core* c, Game* g, int* declined) noexcept nogil:
    """Let the bots act until a learning seat is to act (returned) or the game is over (-1)."""
    cdef int s
    while True:
        s = next_actor(g, declined[0])
        if s < 0 or c.policy[s] == LEARNER:
            return s
        bot_act(c, g, declined, s, c.policy[s])


cdef void seat_scores(Game* g, int* out) noexcept nogil:
    """Each seat's side's score."""
    cdef int s
    for s in range(g.nplayers):
        out[s] = g.scores[side(g, s)]


cdef void deal(Core* c, int i, Game* template) noexcept nogil:
    """A new game in slot ``i``, played on to the first decision of a learning seat."""
    cdef Game* g = &c.games[i]
    while True:
        g[0] = template[0]
        g.rng = splitmix_next(&c.o.streams[i])
        new_game(g, template.target, -1)
        c.o.declined[i] = 0
        if play_bots(c, g, &c.o.declined[i]) >= 0:
            break
    seat_scores(g, c.o.seen + 4 * i)


cdef void observe(Core* c, int i, float* obs, int8_t* mask) noexcept nogil:
    cdef Game* g = &c.games[i]
    cdef int s = next_actor(g, c.o.declined[i]), seat = s, k
    if seat < 0:
        seat = c.learner if c.learner >= 0 else 0
    encode(g, &c.e, seat, obs)
    for k in range(c.n):  # a score past the target, or below minus the target, is clipped
        if obs[2 * c.n + k] > 1.0:
            obs[2 * c.n + k] = 1.0
        elif obs[2 * c.n + k] < -1.0:
            obs[2 * c.n + k] = -1.0
    write_mask(&c.m, g, c.o.declined[i], s, mask)
    c.o.seat_out[i] = seat


cdef void reset_one(Core* c, int i, Game* template) noexcept nogil:
    deal(c, i, template)
    c.o.pending[i] = 0
    observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * (c.m.moves + 1))


cdef void step_one(Core* c, int i, int64_t mv, int64_t amount, Game* template) noexcept nogil:
    cdef Game* g = &c.games[i]
    cdef int s, actor, ok
    cdef int before[4]
    cdef int after[4]
    cdef double result[4]
    cdef Py_ssize_t width = c.m.moves + 1
    if next_step_deal(&c.o, i, c.n):
        reset_one(c, i, template)
        return
    actor = next_actor(g, c.o.declined[i])
    seat_scores(g, before)
    ok = actor >= 0 and apply_choice(c, g, &c.o.declined[i], actor, mv, amount)
    if ok and c.learner >= 0:
        play_bots(c, g, &c.o.declined[i])
    seat_scores(g, after)
    for s in range(c.n):  # +1 for the winning side, -1 for another, 0 when nobody won
        result[s] = 0.0 if g.winner < 0 else (1.0 if side(g, s) == g.winner else -1.0)
    settle(&c.o, i, c.n, c.learner, actor, ok, g.phase == PH_OVER, c.win, c.illegal, before, after, result)
    if not c.o.term[i]:
        observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * width)
        return
    if c.same_step:
        observe(c, i, c.o.final_obs + <Py_ssize_t>i * c.e.size, c.o.final_mask + <Py_ssize_t>i * width)
        reset_one(c, i, template)
        return
    observe(c, i, c.o.obs + <Py_ssize_t>i * c.e.size, c.o.mask + <Py_ssize_t>i * width)
    if not ok:  # the game goes on, but the episode is over: no move is offered
        memset(c.o.mask + <Py_ssize_t>i * width, 0, width)
    c.o.pending[i] = 1


cdef class VectorCore:
    """The C state of :class:`muggins.cards.cribbage.vector.CribbageVectorEnv`: ``num_envs`` games and the
    arrays they write (see the module docstring). Made and driven by that class."""

    cdef Core c
    cdef Game template
    cdef object rules
    cdef readonly int num_envs
    cdef tuple _keep           # the arrays whose memory the core writes
    cdef object _games_buf

    def __init__(self, rules: object, num_players: int, num_envs: int, policies: list[int], learner: int,
                 moves: int, amounts: int, play: int, win: bool, illegal_reward: float, same_step: bool,
                 arrays: dict, search_iterations: int = 64) -> None:
        cdef Core* c = &self.c
        set_rules(&self.template, rules)
        self.template.target = rules.target
        c.m = make_moves(play, self.template.manual)
        if c.m.moves + 1 != moves or play != (52 if self.template.discard_each == 1 else 1326):
            raise RuntimeError("the compact numbering and the native engine's disagree on the moves")
        self.rules = rules
        self.num_envs = num_envs
        c.e = make_enc(rules, num_players)
        c.n = num_players
        for s in range(4):
            c.policy[s] = policies[s] if s < num_players else LEARNER
        c.learner = learner
        c.amounts = amounts
        c.win = bool(win)
        c.same_step = bool(same_step)
        c.illegal = illegal_reward
        c.search_iterations = search_iterations
        c.scale = max(5.0, rules.target / 10.0)
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

    def game(self, i: int) -> NativeCribbage:
        """A copy of game ``i`` as a :class:`~muggins.cards.cribbage.native.NativeCribbage` (no event log)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"there is no game {i!r}; games are 0 to {self.num_envs - 1}")
        cdef NativeCribbage s = NativeCribbage.__new__(NativeCribbage)
        s.layout(self.rules)
        s.g = self.c.games[i]
        s.g.log = NULL
        return s

    def declined(self, i: int) -> int:
        """The seats (a bit each) of game ``i`` that let its open window go."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"there is no game {i!r}; games are 0 to {self.num_envs - 1}")
        return self.c.o.declined[i]


def mask_native(game: NativeCribbage, seat: int, declined: int = 0) -> np.ndarray:
    """The environment's mask of ``seat``'s moves in the native ``game`` (the compact move head, "let it go"
    last), the seats of ``declined`` (a bit each) having let the open window go: the moves of
    ``compact_actions_of(state).move_mask(state, seat)`` and "let it go" for a seat asked about the window."""
    cdef Game* g = &game.g
    if not 0 <= seat < g.nplayers:
        raise ValueError(f"there is no seat {seat!r}; seats are 0 to {g.nplayers - 1}")
    cdef Moves m = make_moves(52 if g.discard_each == 1 else 1326, g.manual)
    out = np.zeros(m.moves + 1, dtype=np.int8)
    cdef int8_t[::1] o = out
    write_mask(&m, g, declined, seat, &o[0])
    return out

# The native cribbage engine's C data and the functions other native modules use (native.pyx defines them;
# muggins.cards.cribbage.vector_native steps many games with them).
from libc.stdint cimport uint64_t

from muggins.core.idlog cimport IdLog
from muggins.core.pyrandom cimport MT, DrawLog

cdef enum:
    PH_DISCARD = 0
    PH_PLAY = 1
    PH_SHOW = 2
    PH_OVER = 3
    ID_PLAY = 1326
    ID_GO = 1378
    ID_COUNT_HAND = 1379
    ID_COUNT_CRIB = 1380
    N_IDS = 1381
    PACK = 40   # undealt cards after a two-player deal
    PACK_MAX = 42  # ... after a five-card deal (36 with three players, 32 with four)
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    # the event log: records of EV_WIDTH ints (kind, seat, six fields), one per event of the pure engine
    EV_WIDTH = 8
    EV_DEAL = 0         # seat dealer: hand number
    EV_DEALT = 1        # seat: its cards (-1 padded)
    EV_DISCARD = 2      # seat: the cards laid away (-1 padded)
    EV_STARTER = 3      # card, cut
    EV_SCORE = 4        # seat: side, points, reason (R_*)
    EV_PLAY = 5         # seat: card, count, points, pair points, run length, go (0, 1 go, 2 last card)
    EV_GO = 6           # seat: count, takes (0 nothing, 1 go, 2 last card)
    EV_RESET = 7        # count, last
    EV_SHOW_START = 8   # dealer
    EV_SHOW = 9         # seat: what (0 hand, 1 crib), points, mask low 32 bits, mask high bits, starter
    EV_EXPLAIN = 10     # seat: what, mask low, mask high, starter
    EV_GAME_END = 11    # winner side, then each side's score
    R_HEELS = 0
    R_PLAY = 1
    R_GO = 2
    R_HAND = 3
    R_CRIB = 4
    R_MUGGED = 5
    R_FALSE_CALL = 6
    R_MUGGINS = 7
    R_OVER_PENALTY = 8
    R_THREE = 9
    EV_CLAIM = 12       # seat: points, late
    EV_OVER_CLAIM = 13  # seat: points, true points, what (W_*), penalty
    EV_MISSED = 14      # seat: side, points, reason
    EV_MUGGINS = 15     # seat: on, outcome (O_*), points, named (-1: none), missed, reason
    EV_HIS_HEELS = 16   # seat: card
    W_CARD = 0          # what a scoring step is called in an over-claim message
    W_GO = 1
    W_HAND = 2
    W_CRIB = 3
    W_JACK = 4
    O_STEAL = 0
    O_FORFEIT = 1
    O_STEAL_AND_DEDUCT = 2
    O_FALSE_CALL = 3
    CLAIM_NONE = -1
    CLAIM_TRUE = -2     # a playout's moves announce their true points
    N_IDS_CACHED = 4096
    MAX_OFFER = 64   # the most Actions of a seat's own moves an offer keeps (six cards held: 15 discards)
    # the search's frame (native.pyx, "the native search")
    MAX_SLOTS = 8
    SLOT_HELD = 0
    SLOT_DISCARDS = 1
    SLOT_CRIB = 2
    SLOT_PACK = 3

cdef struct EvLog:
    int* buf
    long n          # ints used (events x EV_WIDTH)
    long cap
    void* owner     # the one Game that writes here: a copy of the struct (a playout's, a search's) never does

cdef struct Game:
    uint64_t held[4]      # the cards each seat holds now
    uint64_t kept[4]      # the hand each seat kept for the show (0 until it discards)
    uint64_t crib
    int scores[3]         # one per side
    int target
    int dealer
    int phase
    int turn              # the seat to play or count (-1 while discarding or once over)
    int count
    int to_discard        # bit mask of the seats still to lay away
    int ranks[16]         # ranks of the current series (at most 8 cards with two players)
    int nranks
    int gone              # bit mask of the seats that said go in this series
    int last              # the seat that laid the last card of this series (-1: none)
    int show_i            # 0 pone's hand, 1 dealer's hand, 2 the crib
    int starter           # -1 until cut
    int cut
    int pack[PACK_MAX]
    int winner            # -1 until over
    int hand_no
    int feed_cut          # a fed cut position, -1: none
    int feed_deal         # 1: feed_cards holds the next deal
    int feed_cards[52]    # seat 0's six, seat 1's six, the pack in order
    uint64_t rng
    EvLog* log            # the event log, NULL when off (see ev)
    # the muggins rule (claims="manual", RULES.md §2.8; core/protocol.py's window logic)
    int manual
    int lenient           # claim_timing == "lenient": a scorer who said nothing may claim late
    int mug_rule          # O_STEAL, O_FORFEIT or O_STEAL_AND_DEDUCT
    int over_penalty      # over_claim == "opponent_scores"
    int false_call        # false_call_penalty: 0 none, 1 deduct, 2 award
    int false_points
    int award_cap[5]      # per window reason (R_HEELS .. R_CRIB): the most a false call awards
    int mug_heels
    int claim             # the claim of the move being applied (CLAIM_NONE, CLAIM_TRUE or the points)
    int w_open            # the open window: its scorer, side, missed points, reason, what, late claim
    int w_scorer
    int w_side
    int w_missed
    int w_claimed
    int w_reason
    int w_what
    int w_may
    int w_late
    int due               # a show whose true count is told when its window closes: 1 + crib, 0 none
    int due_seat
    uint64_t due_mask
    int due_starter
    # the deal (RULES.md §5: two, three or four players, the five-card game)
    int nplayers
    int nsides            # a seat's side is seat % nsides (partners sit opposite with four)
    int each              # cards dealt to each seat
    int discard_each
    int crib_dealt        # cards dealt to the crib (one with three players)
    int npack             # undealt cards
    int five_card         # one series of play; three for last to the first pone
    int external          # 1: deals and cuts come from the owner's chance (``pending`` until it gives them)
    int pending           # 1: a hand waits for its deal, 2: the play waits for the cut
    # what a seat's view shows that the play above does not keep (RULES.md §5; the observation reads it)
    uint64_t discards[4]  # the cards each seat laid away in this hand
    uint64_t pile         # the cards of the current series
    uint64_t series       # the cards of this hand's earlier series
    uint64_t shown        # the kept hands counted so far in this hand's show
    int crib_shown        # 1: the crib is turned up (next to count, or counted)
    int go_floor[4]       # every card a seat still holds is worth more than this (what its gos told)

cdef struct Frame:
    Game base              # the position with every card the seat cannot see taken out
    int pool[52]           # the unseen cards, ascending
    int npool
    int nslots             # slots in filling order, the most constrained first
    int slot_kind[MAX_SLOTS]
    int slot_owner[MAX_SLOTS]
    int slot_size[MAX_SLOTS]
    uint64_t slot_forbid[MAX_SLOTS]   # the cards a slot cannot hold (a go floor)
    uint64_t played[2]     # the cards each seat has played in this hand (public)
    int set_kept[2]        # 1: the seat's kept hand is its played cards and its drawn held cards
    int set_crib           # 1: the crib is the seen discards and the drawn ones
    uint64_t crib_seen     # the discards of the crib the seat knows (its own)

cdef int set_rules(Game* g, object rules) except -1
cdef void seed_game(Game* g, uint64_t seed) noexcept nogil
cdef void new_game(Game* g, int target, int dealer) noexcept nogil
cdef int legal_check(Game* g, int seat, int i) noexcept nogil
cdef int own_moves(Game* g, int seat, int* ids, bint by_id, int cap) noexcept nogil
cdef void apply_legal(Game* g, int seat, int i) noexcept nogil
cdef int choose(Game* g, int seat, int policy) noexcept nogil
cdef int choose_mixed(Game* g, int seat, double greedy) noexcept nogil
cdef int true_points(Game* g, int seat, int i) noexcept nogil
cdef void call_muggins(Game* g, int seat, int amount) noexcept nogil
cdef void late_claim(Game* g, int seat, int amount) noexcept nogil
cdef int frame_of(const Game* g, int seat, Frame* f) noexcept nogil
cdef int draw_world(const Frame* f, Game* w, uint64_t* rng) noexcept nogil
cdef int search_move(Game* g, int seat, long iterations, double c, int horizon, double greedy,
                     double scale) noexcept nogil


cdef class NativeCribbage:
    cdef Game g
    cdef EvLog evlog
    cdef object rules
    # the numbering of docs/actions.md under these rules: where each block starts, claim codes per move
    cdef int id_play, id_go, id_count, id_muggins, id_claim, id_size, width
    cdef bint same_ids    # the ids of these rules are the internal ones (two players, automatic scoring)
    cdef object deal_fn   # the owner's chance, see follow_chance
    cdef object cut_fn
    cdef object owner     # a weak reference to the state this game serves (bind_owner), or None
    cdef bint owner_deals  # the owner's chance gives the deals and cuts (bind_owner), not deal_fn and cut_fn
    cdef IdLog hist       # (seat, id) of every move applied by apply_id while the history is kept
    cdef bint keep_hist
    cdef MT mt            # the owner's random.Random, while the engine holds it (own_rng): see take_rng
    cdef bint own_rng
    cdef DrawLog drawn    # the outcomes drawn from it, not yet taken (take_drawn)
    cdef public object chance  # the owner's Chance (the state's, whose generator this game may hold)
    cdef tuple act_table  # the Actions of the owner's protocol: see bind_actions
    cdef dict act_ids
    cdef object act_window
    cdef object act_slow
    cdef object ids_kept  # the last list of legal ids given, refilled when nobody holds it (core/pylist.pxd)
    cdef object acts_kept  # the same for the lists of Actions
    cdef int offer[MAX_OFFER]  # the internal ids of the Actions legal_actions offered last (apply_action
    cdef int noffer            # finds an offered Action there by its identity)

    cdef int layout(self, object rules) except -1
    cdef int record(self, int seat, int i) except -1
    cdef int resume(self) except -1
    cdef int mt_deal(self) except -1
    cdef int copy_log(self, EvLog src) except -1
    cdef list legal_list(self, int seat)
    cdef list id_list(self, const int* ids, int n)
    cdef list actions_of(self, int seat, tuple table, bint offer)
    cdef int apply_checked(self, object seat, object i) except -1
    cdef int apply_int(self, int seat, int i) except -1
    cdef int do_move(self, int seat, int internal, int claim, int i) except -1
    cdef int external_id(self, int internal) noexcept
    cdef int external(self, int i, int claim)

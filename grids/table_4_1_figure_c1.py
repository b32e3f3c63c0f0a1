"""Table 4.1's mechanistic tasks beyond recall (33_mechanistic, Table A.1's recipe, 3 CPU minutes a run): majority
and counting at L = 64 and in-context linear regression in 2, 4 and 8 dimensions, for Hyena, attention and Mamba.
Then Figure C.1's arithmetic: Hyena adding numbers of 2 to 16 digits with 1 to 3 layers (4 minutes a run); last, the
same twelve runs with a validation split (`validation`), the ablations of its gap (`ablations`), and whole-sum
accuracy under the step that closed it (`exact`)."""
from grids._common import mechanistic_cells

ARITHMETIC = dict(digits=[2, 4, 8, 16], layers=[1, 2, 3])
NUM_VAL = 200  # a validation split as large as the test set


def cells(root="runs") -> list[dict]:
    return (mechanistic_cells(root, "tasks-cpu", "tasks")
            + mechanistic_cells(root, "arithmetic-cpu", "arithmetic", **ARITHMETIC, max_minutes_per_run=4.0)
            + validation(root) + ablations(root) + ablations(root, steps=("w-10",), layers=(1,))
            + ablations(root, steps=("w-10",), layers=(1,), seeds=(1, 2))
            + ablations(root, steps=("w-10",), digits=(2, 4), layers=(1, 2, 3))
            + exact(root) + exact(root, layers=(1,), seeds=(1, 2)) + trends(root) + trends_ablations(root)
            + trends_icl_seeds(root) + trends_counting_short(root))


def validation(root="runs", seeds=(0,), digits=ARITHMETIC["digits"], layers=ARITHMETIC["layers"]) -> list[dict]:
    """Figure C.1 with a validation split (sweep arithmetic-cpu-val): the budget fixed before the run at Table A.1's
    200 epochs with no time cap (the 4-minute cap above cut the planned epochs of the longest runs to 107-176), and
    validation alone stopping a run at its first 100% and choosing the epoch at which the test set is read."""
    return mechanistic_cells(root, "arithmetic-cpu-val", "arithmetic", digits=list(digits), layers=list(layers),
                             seeds=seeds, max_minutes_per_run=0, num_val=NUM_VAL)


# Figure C.1's gap: with Table A.1's 2000 training sums, 2 and 3 layers learn 4 digits but not 8 or 16 (24-29% and
# 14-15% per-digit test accuracy at validation's epoch, where the paper's curves converge within 80 epochs). Each step
# below changes one thing of arithmetic-cpu-val and keeps the rest (200 epochs, 200 validation sums that alone stop
# the run and choose its epoch). Its run records `ablation_step`, which the scoreboard's Figure C.1 rows exclude: they
# judge Table A.1's setting; the steps test a cause.
#
# The rule, written before any step ran: a step explains the gap at a number of digits where it lifts the 2-layer run
# to the paper's band (>= 90% test accuracy at validation's epoch); one that leaves it under 50% does not; in between,
# it is part of the cause.
#
# A step that explains the gap runs at one layer too (written before those runs, after the 2-layer runs were read):
# the paper's one layer does not learn 8 or 16 digits ("longer numbers require deeper models"); its depth claim holds
# under the step where one layer stays under 50% at 8 and 16 digits, and does not where one layer reaches 90%. Two
# more seeds of w-10 at one layer, 8 and 16 digits, and w-10 at 2 and 4 digits (Figure C.1 whole under w = 10) were
# added after those one-layer runs were read; the verdicts read the mean over seeds.
#
# fresh-data: a new draw of 2000 sums every epoch (400,000 sums in all, against 2000 seen 200 times): whether the
#     fixed training set, which the runs overfit (their test loss rises from about epoch 60), is the cause. At 8 and
#     16 digits two draws of 10^16 or more addend pairs collide with the 400 test and validation sums with
#     probability under 1e-8, so the fresh sums are not checked against them.
# w-10: the filter FFN's sine frequency at 10, the official synthetics configurations' value, where Table A.1's runs
#     keep the operator's default 1. The position that predicts a sum digit reads that digit's addends at fixed lags (2D
#     and D back), filters with sharp peaks; w = 10 lets the FFN draw higher frequencies, and it was one of the steps
#     that moved recall at L = 128 (runs/associative_recall/ablation-L128).
# lsd-first: the sum's digits written least significant first, so that a causal model writes each carry after the
#     digits it comes from; the addends' lags then change from digit to digit. The paper writes the sum most significant
#     first (its example 1, 2, 3, 9, 5, 4, 1, 0, 7, 7), as Table A.1's runs do: this step tests the task's order, not
#     our reading of the paper.
ABLATION_STEPS = {"fresh-data": dict(fresh_data=True), "w-10": dict(w=10.0), "lsd-first": dict(lsd_first=True)}


def ablations(root="runs", steps=tuple(ABLATION_STEPS), digits=(8, 16), layers=(2, 3), seeds=(0,)) -> list[dict]:
    """Each step of ABLATION_STEPS on arithmetic-cpu-val's setting (sweep arithmetic-ablation-val), at the digits and
    depths where the paper's runs converge and ours do not."""
    from grids._common import folder
    out = []
    for step in steps:
        for c in validation(root, seeds=seeds, digits=digits, layers=layers):
            name = c["run"].rsplit("/", 1)[1]
            out.append(dict(c, run=str(folder(root, "mechanistic", "arithmetic-ablation-val", f"{step}_{name}")),
                            params={**c["params"], **ABLATION_STEPS[step], "ablation_step": step}))
    return out


# Whole sums. Our accuracy is per digit, as the official synthetics' metric (accuracy over the scored positions) is;
# the paper's figure says "accuracy" and does not say which. At w = 10 one layer reaches 96.9% (8 digits) and 97.4%
# (16 digits) per digit, where the paper says it does not learn them; if its digit errors were spread over the sums,
# that is 0.97^9, about 75%, of 9-digit sums right. The sweep arithmetic-exact-val runs the w-10 cells at 8 and 16
# digits again with `exact_match`: the same seeds train the same weights (the metric reads, 33_mechanistic asserts
# it), so their per-digit numbers equal arithmetic-ablation-val's, and each evaluation records the share of sums
# right at every digit too; validation still chooses the epoch on per-digit accuracy.
#
# The rule, written before these runs: read with whole sums, at the epoch validation chose (the mean over seeds), the
# paper's depth claim holds under w = 10 at a number of digits where one layer is under 50% and two layers at least
# 90%; it does not hold where one layer reaches 90%; otherwise the claim rests on which accuracy the figure plots.
EXACT_STEP = "w-10"


def exact(root="runs", digits=(8, 16), layers=(1, 2, 3), seeds=(0,)) -> list[dict]:
    """The w-10 cells of `ablations` with whole-sum accuracy recorded (sweep arithmetic-exact-val)."""
    from grids._common import folder
    out = []
    for c in ablations(root, steps=(EXACT_STEP,), digits=digits, layers=layers, seeds=seeds):
        name = c["run"].rsplit("/", 1)[1]
        out.append(dict(c, run=str(folder(root, "mechanistic", "arithmetic-exact-val", name)),
                        params={**c["params"], "exact_match": True}))
    return out


# Section 4.1 ends its comparison of the six long-convolution parametrizations with "similar trends are observed on the
# other tasks" (claim H-T4.1-similar-trends). The sweep trends-val trains Figure 4.1's operator with each of them on
# one setting of each other task of Table 4.1: addition of 4-digit numbers with 2 layers (where Hyena learns Figure
# C.1's task, arithmetic-cpu-val), ICL of linear functions at n_o = 4, majority and counting at L = 64, vocabulary 10;
# the cheapest tasks first. Table A.1's recipe and 200 epochs with no time cap (a cap would give the slower filters
# fewer epochs), and 200 validation examples that alone stop a run at its first 100% and choose the epoch at which
# the test set is read.
#
# The rule, written before any of these runs: Figure 4.1's tiers, (Hyena, CKConv) > (TransferFunc, H3) >
# (Conv1d, FNO), hold on a task when the weaker of each tier beats the stronger of the next in test accuracy at
# validation's epoch (ICL: R^2, in percent); the claim holds when they hold on every task all six have run, and its
# margin is the smallest of those gaps (the scoreboard's noise rule then asks for seeds where it is small).
TRENDS_ORDER = ("addition", "icl_linear", "majority", "counting")


def trends(root="runs", seeds=(0,)) -> list[dict]:
    "Figure 4.1's six parametrizations on Table 4.1's other tasks (sweep trends-val), in TRENDS_ORDER."
    from hyena_lit.experiments.mechanistic import PARAMETRIZATIONS
    common = dict(seeds=seeds, max_minutes_per_run=0, num_val=NUM_VAL)
    out = (mechanistic_cells(root, "trends-val", "arithmetic", mixers=PARAMETRIZATIONS, digits=[4], layers=[2], **common)
           + mechanistic_cells(root, "trends-val", "trends", icl_dims=[4], **common))
    return sorted(out, key=lambda c: TRENDS_ORDER.index(c["params"]["task"]))


# Addition, read after its six runs: every parametrization but Hyena's reaches 99.5-100% (test, at validation's epoch),
# Hyena's 89.4, so the tiers fail there. Hyena's filter is CKConv's (an FFN of width 32) with two additions: the decay
# window over the filter, and the short explicit filters on its projections. Written before these runs: Hyena's two
# more seeds say whether 89.4 is its level; an addition that lifts CKConv's run to the others' level is not the cause;
# one whose removal from Hyena's run lifts it within 2 points of the others' lowest (99.5), and whose addition to
# CKConv's drops it under 95, is.
TRENDS_ABLATIONS = {"no-short": ("longconv:hyena", dict(longconv_short_filter=0)),   # Hyena's, short filters removed
                    "short": ("longconv:ckconv", dict(longconv_short_filter=3))}     # CKConv's with Hyena's short filters


def trends_ablations(root="runs") -> list[dict]:
    "Hyena's seeds 1 and 2 on addition (trends-val), then TRENDS_ABLATIONS at seed 0 (sweep trends-ablation-val)."
    from grids._common import folder
    addition = [c for c in trends(root, seeds=(0, 1, 2)) if c["params"]["task"] == "addition"]
    out = [c for c in addition if c["params"]["mixer"] == "longconv:hyena" and c["params"]["seed"] > 0]
    for step, (mixer, opts) in TRENDS_ABLATIONS.items():
        c = next(c for c in addition if c["params"]["mixer"] == mixer and c["params"]["seed"] == 0)
        name = c["run"].rsplit("/", 1)[1]
        out.append(dict(c, run=str(folder(root, "mechanistic", "trends-ablation-val", f"{step}_{name}")),
                        params={**c["params"], **opts, "ablation_step": step}))
    return out


# ICL, read after its six runs at seed 0: R^2 at validation's epoch spans 80.1 (Hyena) to 84.7 (Conv1d), and the seeds'
# spread on this task is not measured. Written before these runs: seeds 1 and 2 of the two ends, Hyena and Conv1d.
# Conv1d's lead is established when the mean of its three seeds exceeds Hyena's by more than twice the standard error
# of the difference, sqrt(sd_hyena^2 / 3 + sd_conv1d^2 / 3); otherwise the six are within the seeds' noise on ICL.
def trends_icl_seeds(root="runs") -> list[dict]:
    "Seeds 1 and 2 of Hyena and Conv1d on ICL at n_o = 4 (sweep trends-val)."
    return [c for c in trends(root, seeds=(0, 1, 2)) if c["params"]["task"] == "icl_linear" and c["params"]["seed"] > 0
            and c["params"]["mixer"] in ("longconv:hyena", "longconv:conv1d")]


# Counting, read after its six runs at L = 64: each reads 11.5-16.5, under the 17.5 that one constant answer scores
# (the training set's most frequent count), and five fit their 2000 training sequences, so none learns the task there
# and its tiers rank noise. Written before these runs: the same six at L = 16, vocabulary 10 (sweep
# trends-counting-val, seed 0, the rest as trends-val), where a count takes fewer values. A parametrization learns
# counting at L = 16 when its test accuracy at validation's epoch exceeds the constant answer's on the same test set by
# more than twice one run's binomial standard error at the constant's accuracy. Where none does, counting ranks nothing
# at CPU scale; where some do, Figure 4.1's tiers are read there as on the other tasks. A diagnostic beside the claim:
# H-T4.1-similar-trends keeps its one setting a task (trends-val).
def trends_counting_short(root="runs") -> list[dict]:
    "Figure 4.1's six parametrizations on counting at L = 16, vocabulary 10 (sweep trends-counting-val)."
    from hyena_lit.experiments.mechanistic import PARAMETRIZATIONS
    out = mechanistic_cells(root, "trends-counting-val", "trends", mixers=PARAMETRIZATIONS, seq_lens=[16],
                            max_minutes_per_run=0, num_val=NUM_VAL)
    return [c for c in out if c["params"]["task"] == "counting"]

"""Figure 4.1 under Table A.1's recipe (200 epochs of 2000 examples): associative recall by the Hyena operator with
each long-convolution parametrization at lengths 128 to 1024 and vocabularies 10 to 40, each run cut to the epochs
that fit in 3 CPU minutes. Then the full 200 epochs at L = 128, and two one-run controls at L = 128, V = 30: a fresh
training set every epoch (are 2000 examples the limit?) and the official model's widths (MLP 256, embedding
dropout 0.1) under Table A.1's recipe. Last, uncapped, the longer cells the cap cut short: Hyena at L = 512 and 1024,
vocabularies 10, 20 and 40, on Table 4.2's runner and recipe (sweep fig4.1-a1, beside the V = 30 cells of
table4.2-a1): 33_mechanistic, answer-scored, 500 test sequences, each run stopped once it scores 100%; and those cells again with a validation split (fig4.1-a1-val) that alone
stops a run and picks its epoch."""
from grids._common import mechanistic_cells, recall_cells
from grids.figure_4_1_official import PARAMETRIZATIONS

TABLE_A1 = dict(  # Table A.1, its numbers written out; MLP width 128 (the table gives only the model width)
    recipe="paper-synthetics", epochs=200, batch_size=32, lr=5e-4, weight_decay=0.1, warmup_epochs=10,
    num_train=2000, num_test=200, n_layer=2, d_model=64, d_inner=128, emb_dim=5, embed_dropout=0.0, fresh_data=False)


def cells(root="runs") -> list[dict]:
    capped, full = dict(TABLE_A1, max_minutes_per_run=3.0), dict(TABLE_A1, max_minutes_per_run=0)
    grid = recall_cells(root, "fig4.1-cpu", capped, PARAMETRIZATIONS, [128, 256, 512, 1024], [10, 20, 30, 40])
    grid += recall_cells(root, "fig4.1-cpu-200ep", full, PARAMETRIZATIONS, [128], [20, 30, 40])
    grid += recall_cells(root, "fig4.1-cpu-200ep-fresh", dict(full, fresh_data=True), ["hyena"], [128], [30])
    official_widths = dict(full, d_inner=256, embed_dropout=0.1)
    return (grid + recall_cells(root, "fig4.1-cpu-200ep-official", official_widths, ["hyena"], [128], [30])
            + longer(root) + longer(root, "fig4.1-a1-val", num_val=500))


def longer(root="runs", sweep="fig4.1-a1", num_val=0) -> list[dict]:
    """Hyena at L = 512, then 1024, vocabularies 10, 20, 40: Table 4.2's uncapped cells (table4.2-a1) at the other V;
    with `num_val`, a validation split that alone stops each run and picks its epoch (sweep fig4.1-a1-val)."""
    from grids.table_4_2 import TABLE_A1 as TABLE_4_2
    return [c for L in (512, 1024) for V in (10, 20, 40)
            for c in mechanistic_cells(root, sweep, "table4.2", mixers=["hyena"], seq_lens=[L], num_val=num_val,
                                       **dict(TABLE_4_2, vocab_size=V))]

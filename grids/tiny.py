"""A grid small enough to run in seconds on a CPU, for tests of the launcher and the run lifecycle: associative
recall at L = 32 for Hyena's filter and the explicit Conv1d, vocabularies 10 and 20, one width-16 block, 64
training examples, 32 validation examples that pick the epoch, 2 epochs. Nothing of the paper is measured here."""
from grids._common import recall_cells

TINY = dict(recipe="paper-synthetics", epochs=2, batch_size=16, lr=5e-4, weight_decay=0.1, warmup_epochs=1,
            num_train=64, num_test=32, num_val=32, n_layer=1, d_model=16, d_inner=32, emb_dim=3, embed_dropout=0.0,
            max_minutes_per_run=0, fresh_data=False)


def cells(root="runs") -> list[dict]:
    return recall_cells(root, "tiny", TINY, ["hyena", "conv1d"], [32], [10, 20])

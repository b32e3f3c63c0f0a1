"""Four tiny associative-recall cells (two long convolutions x two vocabularies, 32 tokens, seconds each on a CPU):
the launcher's own test grid, and the smallest thing to try the launcher on."""


def cells(root="runs"):
    base = dict(num_train=64, num_test=16, n_layer=1, d_model=16, d_inner=32, emb_dim=3, recipe="paper-synthetics",
                epochs=3, warmup_epochs=1, batch_size=32)
    return [dict(experiment="associative_recall", run=f"{root}/tiny/{p}_L32_V{v}_s0",
                 params=dict(base, parametrization=p, seq_len=32, vocab_size=v, seed=0))
            for p in ("hyena", "conv1d") for v in (8, 10)]

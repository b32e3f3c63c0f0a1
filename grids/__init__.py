"Experiments as data: each file's `cells(root)` lists the runs of one grid of the paper (see _common.cell)."

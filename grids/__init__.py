"""Grids as data: each file, named after a table or figure of the papers, lists its runs with `cells(root)`
(see _common.cell)."""

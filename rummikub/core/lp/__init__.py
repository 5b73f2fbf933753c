"""Linear programs for both solvers: built row by row, searched by branch and bound.

``rows`` adds variables and rows to a model, ``records`` writes a model straight as
OR-Tools' records, ``wire`` reads and writes those records as bytes, ``search`` proves an
integer optimum by branch and bound over CLP, ``zero_half`` finds cuts. Only this package
and the solvers' model code import OR-Tools, and only when a solve runs.
"""

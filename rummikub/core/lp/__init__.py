"""Linear programs for both solvers: one way to build them, one search to solve them.

``builder`` is the interface every model is built through (variables and rows by index),
implemented by ``rows`` (the live CLP model) and ``records`` (the model as data, written as
OR-Tools' records, which ``wire`` reads and writes as bytes); ``search`` proves an integer
optimum by branch and bound over CLP and hands what it leaves open to an exact back end
(``exact``: CBC or CP-SAT); ``zero_half`` finds cuts. Only this package and the solvers'
model code import OR-Tools, and only when a solve runs.
"""

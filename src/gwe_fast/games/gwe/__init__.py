"""The Great War in the East standard rules with the Brusilov Offensive exclusive rules.

The engine works on the arrays of ``Scenario`` and ``State``: ``data.GweData`` compiles the
scenario's tables once; the procedures (``zoc``, ``movement``, ``supply`` …) are functions of
arrays that call the one search kernel, so that the turn loop can move into Cython whole.
"""

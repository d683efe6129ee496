"""How fast one replica serves: measured, interpolated, or estimated by a fitted roofline.

``engine`` answers a query in that order of trust; ``roofline`` is the physical
model of a decode step; ``calibration`` fits its few parameters per serving stack
to the catalog's measurements; ``validation`` measures how well it transfers and
turns that into the error bands answers carry, and ``accuracy`` reports it by source,
GPU family and model class against a baseline; ``field_check`` judges the engine as
built on the field's measured runs it never calibrated on; ``memory`` decides what fits.
"""

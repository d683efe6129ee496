"""The catalog: models, GPUs, precisions, serving stacks and published measurements."""

from core.catalog.catalog import Catalog, Table, normalize
from core.catalog.entries import Gpu, LeasePrice, Measurement, Model, Precision, Source, Stack
from core.catalog.loading import (
    load_catalog,
    packaged_field_data,
    packaged_field_files,
    packaged_files,
)

__all__ = [
    "Catalog",
    "Gpu",
    "LeasePrice",
    "Measurement",
    "Model",
    "Precision",
    "Source",
    "Stack",
    "Table",
    "load_catalog",
    "normalize",
    "packaged_field_data",
    "packaged_field_files",
    "packaged_files",
]

"""leasewise core: the pure domain engine.

Catalog (models, GPUs, serving stacks, measurements), throughput and latency of a
deployment, and lease economics. No Slack, no database, no clock, no network:
everything here is a function of its inputs and the packaged data files.
"""

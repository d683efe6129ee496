"""Every sentence leasewise shows, from templates: Slack, the local console, the CLI, the digest.

``renderer`` turns a template and its context into a message (Block Kit plus plain
text), a view, or a terminal's text (``Renderer.text``, what the CLI prints);
``formats`` spells each kind of figure one way (the templates' filters, also used by
``charts``), and derived figures ("3.3x dearer") are read off the figures as shown;
``blockkit`` holds Slack's limits and fits messages to them; ``charts`` draws PNGs
from the curves the core computed. Templates live in ``templates/``: Slack's replies
as ``X.blocks.j2`` plus ``X.text.j2``, the command line's own views as
``cli_*.text.j2``, built from the same macros (``_estimate``, ``_sizing``,
``_compare``, ``_digest``, ``_text``).
"""

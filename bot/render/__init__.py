"""Every sentence leasewise shows, from templates: Slack, the local console and the CLI.

``renderer`` turns a template and its context into a message (Block Kit plus plain
text) or a view; ``formats`` spells each kind of figure one way (the templates'
filters); ``blockkit`` holds Slack's limits and fits messages to them; ``charts``
draws PNGs from the curves the core computed. Templates live in ``templates/``.
"""

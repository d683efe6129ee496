"""The Bolt app and its listeners: commands, events, buttons, the quote modal, App Home."""

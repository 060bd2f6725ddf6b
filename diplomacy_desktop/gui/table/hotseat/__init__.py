"""The hot seat's widgets, one file a role: ``flow.py`` (``HotSeatFlow``, the cycle around the
controller), ``curtain.py`` (``CurtainWidget``), ``seal_strip.py`` (``SealStatusStrip``),
``review.py`` (``ReviewDialog``), ``pin_prompt.py`` (the host's and a power's PIN prompts) and
``names.py`` (how a seat is named).  The turn's model is the Qt-free ``table.hotseat``; import
each name from its own module.
"""

"""Reading pips: how many pips each half of a found tile shows, and how sure that is.

`counting` counts the round dark blobs inside each half (merged pips counted twice,
layouts no domino has reported as doubtful); `second_look` thresholds a doubtful half
again on its own (glare, pale pips) and keeps the surer reading.
"""

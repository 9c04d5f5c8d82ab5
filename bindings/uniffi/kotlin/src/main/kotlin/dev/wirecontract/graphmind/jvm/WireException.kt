package dev.wirecontract.graphmind.jvm

/**
 * A frame the contract refuses to build (graphmind-v1 §5.13): the message is the core's
 * reason followed by every issue as `path: rule` (for example `envelope fields out of range;
 * seq: too small: expected integer to be >= 0, received -1`), or a string that UTF-8 cannot
 * carry (a lone surrogate, with its UTF-16 index).
 */
class WireException(message: String) : IllegalArgumentException(message)

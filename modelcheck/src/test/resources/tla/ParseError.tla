---- MODULE ParseError ----
\* A syntax error on purpose (TLC exit 150).
VARIABLE x
Init == x = = 0
====

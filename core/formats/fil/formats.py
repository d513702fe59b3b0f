"""Filipino (fil): Django ships no formats module for it, and its defaults group no digits. Filipino
writes numbers as English does (CLDR): "." before the decimals, "," between groups of three, so
`floatformat:"2g"` gives "2,500.00" on a Filipino sheet as on an English one."""

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3

"""``guobiao tournament``: the organiser's commands, one module per group of them."""

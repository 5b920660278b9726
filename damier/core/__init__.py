"""Game-agnostic core: the Game/State contract, options, errors, records, grids and random numbers."""

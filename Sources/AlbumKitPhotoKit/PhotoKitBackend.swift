// The PhotoKit backend lives here (see issue 4).

// The PhotoKit simulator lives here (see issue 4).
enum PhotoKitSimulatorPlaceholder {}

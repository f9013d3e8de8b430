#if !canImport(ObjectiveC)
    import PhotoKitSimulator
    import Testing

    @Suite struct SimulatorSmokeTests {
        @Test func authorizationStartsNotDetermined() {
            #expect(PHAuthorizationStatus.notDetermined.rawValue == 0)
            #expect(PHAccessLevel.readWrite.rawValue == 2)
        }
    }
#endif

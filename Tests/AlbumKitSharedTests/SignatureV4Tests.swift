#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitShared

    @Suite struct SignatureV4Tests {
        /// The "GET Object" example of Amazon's Signature Version 4 documentation.
        @Test func matchesThePublishedExample() {
            let signer = SignatureV4(
                accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                sessionToken: nil, region: "us-east-1")
            let headers = signer.sign(
                method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", query: [],
                headers: ["Range": "bytes=0-9"], payloadHash: SignatureV4.emptyPayloadHash,
                date: Date(timeIntervalSince1970: 1_369_353_600))
            #expect(
                headers["authorization"]
                    == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                    + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                    + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
            #expect(headers["x-amz-date"] == "20130524T000000Z")
        }
    }
#endif

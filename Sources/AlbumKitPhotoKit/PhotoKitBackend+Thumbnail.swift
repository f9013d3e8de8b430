import AlbumKitCore
import Foundation

#if canImport(Photos)
    import Photos
#else
    import PhotoKitSimulator
#endif
#if canImport(UIKit)
    import UIKit
#elseif canImport(AppKit)
    import AppKit
#endif

/// Thumbnails through `PHImageManager`: Photos decodes the asset (a video's frame too), orients it
/// and scales it to fit, downloading from iCloud when needed; AlbumKit encodes it as JPEG.
extension PhotoKitBackend: PreviewRendering {
    package func thumbnail(ofAssetWithID id: String, maxPixelSize: Int) async throws -> AssetThumbnail? {
        let side = CGFloat(maxPixelSize)
        // Fitted to the size: Photos scales exactly, keeping the aspect ratio.
        return try await requestImage(
            ofAssetWithID: id, targetSize: CGSize(width: side, height: side), contentMode: .aspectFit,
            resizeMode: .exact)
    }

    /// The asset rendered at its full size (`PHImageManagerMaximumSize`, not resized), as JPEG.
    package func fullSizeImage(ofAssetWithID id: String) async throws -> AssetImage? {
        guard
            let encoded = try await requestImage(
                ofAssetWithID: id, targetSize: PHImageManagerMaximumSize, contentMode: .default, resizeMode: .none)
        else { return nil }
        return AssetImage(
            data: encoded.data, format: encoded.format, pixelWidth: encoded.pixelWidth,
            pixelHeight: encoded.pixelHeight, isOriginal: false)
    }

    /// One high-quality image request (not a degraded one first, from iCloud when it is there),
    /// encoded as JPEG; `nil` when Photos gives no image and no error.
    private func requestImage(
        ofAssetWithID id: String, targetSize: CGSize, contentMode: PHImageContentMode,
        resizeMode: PHImageRequestOptionsResizeMode
    ) async throws -> AssetThumbnail? {
        let fetched = PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)
        guard fetched.count > 0 else {
            throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in Photos.")
        }
        let asset = fetched.object(at: 0)
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.resizeMode = resizeMode
        options.isNetworkAccessAllowed = true
        let answered = Locked(false)
        return try await withCheckedThrowingContinuation { continuation in
            PHImageManager.default().requestImage(
                for: asset, targetSize: targetSize, contentMode: contentMode, options: options
            ) { image, info in
                // Photos calls once for a high-quality request; a second call is never resumed.
                guard
                    answered.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                if let image, let encoded = Self.thumbnail(of: image) {
                    continuation.resume(returning: encoded)
                } else if let error = info?[PHImageErrorKey] as? any Error {
                    continuation.resume(throwing: Self.thumbnailError(error, id: id))
                } else {
                    continuation.resume(returning: nil)
                }
            }
        }
    }

    /// Photos' reason for giving no image, as an `AlbumError`.
    private static func thumbnailError(_ error: any Error, id: String) -> AlbumError {
        switch (error as? PHPhotosError)?.code {
        case .accessUserDenied?, .accessRestricted?: return map(error, items: [])
        case .identifierNotFound?:
            return AlbumError(
                .assetNotFound, "There is no asset with the identifier \(id) in Photos.", underlying: error)
        default:
            return AlbumError(
                .fileUnreadable, "Photos could not render the asset \(id): \(error.localizedDescription)",
                underlying: error)
        }
    }

    #if canImport(AppKit) && !canImport(UIKit)
        /// The image as a JPEG thumbnail, with its size in pixels.
        private static func thumbnail(of image: NSImage) -> AssetThumbnail? {
            guard let pixels = image.cgImage(forProposedRect: nil, context: nil, hints: nil),
                let data = NSBitmapImageRep(cgImage: pixels).representation(
                    using: .jpeg, properties: [.compressionFactor: 0.85])
            else { return nil }
            return AssetThumbnail(
                data: data, pixelWidth: pixels.width, pixelHeight: pixels.height, format: .jpeg, isEmbedded: false)
        }
    #else
        /// The image as a JPEG thumbnail, with its size in pixels.
        private static func thumbnail(of image: UIImage) -> AssetThumbnail? {
            guard let data = image.jpegData(compressionQuality: 0.85) else { return nil }
            return AssetThumbnail(
                data: data, pixelWidth: Int((image.size.width * image.scale).rounded()),
                pixelHeight: Int((image.size.height * image.scale).rounded()), format: .jpeg, isEmbedded: false)
        }
    #endif
}

#if !canImport(ObjectiveC)
    import Dispatch
    import Foundation
    import Synchronization

    /// Identifies an image request, to cancel it.
    public typealias PHImageRequestID = Int32

    /// The identifier of no request.
    public let PHInvalidImageRequestID: PHImageRequestID = 0

    /// The size that asks for the image at its own size (the resize mode is then ignored).
    public let PHImageManagerMaximumSize = CGSize(width: -1, height: -1)

    /// Info key (`Bool`): the image is in iCloud; ask again with network access allowed.
    public let PHImageResultIsInCloudKey = "PHImageResultIsInCloudKey"
    /// Info key (`Bool`): the image is a degraded one; the one asked for follows.
    public let PHImageResultIsDegradedKey = "PHImageResultIsDegradedKey"
    /// Info key (`PHImageRequestID`): the request this result answers.
    public let PHImageResultRequestIDKey = "PHImageResultRequestIDKey"
    /// Info key (`Bool`): the request was cancelled.
    public let PHImageCancelledKey = "PHImageCancelledKey"
    /// Info key (`Error`): why there is no image.
    public let PHImageErrorKey = "PHImageErrorKey"

    /// Renders images of assets, as `PHImageManager` does: decoded, oriented upright and scaled
    /// to the size asked for.
    ///
    /// The simulator decodes with ImageMagick (``ImageMagick``); an image it cannot decode (no
    /// ImageMagick, a format it does not read) is delivered as `nil` with `PHImageErrorKey`, as
    /// is an asset no longer in the library or not visible with the app's access. Asynchronous
    /// results arrive on the library's completion queue (Photos: usually the main thread), with
    /// ``PhotoKitSimulation/current`` bound; an opportunistic asynchronous request gets a degraded
    /// image (a quarter of the size asked for) first, then the one asked for.
    public final class PHImageManager: NSObject, Sendable {
        private let nextRequestID = Mutex<PHImageRequestID>(1)
        private let cancelled = Mutex<Set<PHImageRequestID>>([])
        private static let shared = PHImageManager()

        /// The shared image manager.
        public class func `default`() -> PHImageManager { shared }

        /// Requests an image of `asset` that fits `targetSize` (pixels) as `contentMode` says;
        /// `resultHandler` gets the image (or `nil`) and an info dictionary, once or — for an
        /// opportunistic asynchronous request — twice.
        @discardableResult
        public func requestImage(
            for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?,
            resultHandler: @escaping (UIImage?, [AnyHashable: Any]?) -> Void
        ) -> PHImageRequestID {
            let options = (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions()
            let library = PHPhotoLibrary.shared()
            let id = nextRequestID.withLock { id in
                defer { id += 1 }
                return id
            }
            let resource = library.state.withLock { state -> Result<SimulatedResource, PHPhotosError> in
                guard let access = state.readAccessForFetch() else { return .failure(PHPhotosError(.accessUserDenied)) }
                guard let record = state.assets.first(where: { $0.localIdentifier == asset.localIdentifier }),
                    LibraryState.isVisible(record, with: access)
                else { return .failure(PHPhotosError(.identifierNotFound)) }
                let rendered = record.resources.first { [.fullSizePhoto, .photo, .video].contains($0.type) }
                return rendered.map { .success($0) } ?? .failure(PHPhotosError(.invalidResource))
            }
            let geometry = Self.geometry(targetSize, contentMode, options.resizeMode)
            // Not Sendable in Photos' declaration either; called on one queue at a time.
            let handler = UncheckedHandler(resultHandler)
            let deliver: @Sendable (Bool) -> Void = { degraded in
                var info: [AnyHashable: Any] = [PHImageResultRequestIDKey: id, PHImageResultIsInCloudKey: false]
                if degraded { info[PHImageResultIsDegradedKey] = true }
                switch resource {
                case .failure(let error):
                    info[PHImageErrorKey] = error
                    handler.call(nil, info)
                case .success(let resource):
                    let image = Self.render(resource.data, geometry: degraded ? Self.quarter(geometry) : geometry)
                    if image == nil { info[PHImageErrorKey] = PHPhotosError(.invalidResource) }
                    handler.call(image, info)
                }
            }
            if options.isSynchronous {
                deliver(false)
                return id
            }
            let twice = options.deliveryMode == .opportunistic
            library.completionQueue.async {
                library.withSimulationBound {
                    if twice, !self.isCancelled(id) { deliver(true) }
                    if self.isCancelled(id) {
                        handler.call(nil, [PHImageCancelledKey: true, PHImageResultRequestIDKey: id])
                    } else {
                        deliver(false)
                    }
                }
            }
            return id
        }

        /// Cancels an asynchronous request that has not delivered its last result.
        public func cancelImageRequest(_ requestID: PHImageRequestID) {
            _ = cancelled.withLock { $0.insert(requestID) }
        }

        private func isCancelled(_ id: PHImageRequestID) -> Bool { cancelled.withLock { $0.contains(id) } }

        /// ImageMagick's geometry for a request: `nil` for the image at its own size.
        static func geometry(_ size: CGSize, _ mode: PHImageContentMode, _ resize: PHImageRequestOptionsResizeMode)
            -> (width: Int, height: Int, fill: Bool)?
        {
            guard size != PHImageManagerMaximumSize, resize != .none, size.width >= 1, size.height >= 1 else {
                return nil
            }
            return (Int(size.width), Int(size.height), mode == .aspectFill)
        }

        private static func quarter(_ geometry: (width: Int, height: Int, fill: Bool)?) -> (
            width: Int, height: Int, fill: Bool
        )? {
            guard let geometry else { return (256, 256, false) }
            return (max(1, geometry.width / 4), max(1, geometry.height / 4), geometry.fill)
        }

        /// The image in `data`, upright, fitted (or filled) into `geometry` without enlarging it.
        static func render(_ data: Data, geometry: (width: Int, height: Int, fill: Bool)?) -> UIImage? {
            var arguments = ["-auto-orient"]
            if let geometry {
                arguments += ["-thumbnail", "\(geometry.width)x\(geometry.height)\(geometry.fill ? "^" : "")>"]
            }
            guard let png = ImageMagick.convert(data, arguments, to: "png"), let size = ImageMagick.pngSize(png) else {
                return nil
            }
            return UIImage(png: png, pixelWidth: size.width, pixelHeight: size.height)
        }
    }

    /// A result handler carried to the completion queue.
    // @unchecked Sendable: Photos' result handler is not Sendable; the simulator calls it from one
    // queue at a time (the caller's thread for a synchronous request, else the serial completion
    // queue), as Photos calls it from one thread at a time.
    private struct UncheckedHandler: @unchecked Sendable {
        let body: (UIImage?, [AnyHashable: Any]?) -> Void
        init(_ body: @escaping (UIImage?, [AnyHashable: Any]?) -> Void) { self.body = body }
        func call(_ image: UIImage?, _ info: [AnyHashable: Any]) { body(image, info) }
    }
#endif

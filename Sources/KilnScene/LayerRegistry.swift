import KilnModel

/// Every layer kind Kiln knows. A new kind is one file with its parameter table plus one line here.
public enum LayerRegistry {
    public static let kinds: [LayerKind] = [
        SolidLayer.kind,
        MeshGradientLayer.kind,
        ShapeLayer.kind,
    ]
}

import {
  ArcType,
  Cartesian2,
  Cartesian3,
  Color,
  ColorGeometryInstanceAttribute,
  DistanceDisplayCondition,
  GeometryInstance,
  HorizontalOrigin,
  type Label,
  LabelCollection,
  LabelStyle,
  Material,
  NearFarScalar,
  PerInstanceColorAppearance,
  PointPrimitiveCollection,
  PolygonGeometry,
  PolygonHierarchy,
  PolylineCollection,
  PolylineColorAppearance,
  PolylineGeometry,
  Primitive,
  PrimitiveCollection,
  VerticalOrigin,
} from 'cesium';
import type { VectorStyle } from '../scene.types.js';
import {
  type FeatureCollection,
  featureColor,
  finiteNumber,
  firstFinite,
  formatLabel,
  nearestIndices,
  placeLabels,
  vectorShapes,
} from '../vector-features.js';

/** Labels drawn at once in a layer (the nearest to the camera) and how far they show (metres). */
const MAX_LABELS = 300;
const LABEL_DISTANCE = 800;

/** The id of every pickable object of a vector layer: the feature it draws. */
export class VectorPick {
  constructor(
    readonly layerId: string,
    readonly properties: Record<string, unknown>,
  ) {}
}

/** A vector layer built for Cesium. */
export interface GlobeVectorLayer {
  /** Everything the layer draws; removing it from the scene destroys it (and only it). */
  primitives: PrimitiveCollection;
  /**
   * Labels the points nearest to the camera that do not overlap on screen
   * (the tallest first), in `locale`; true when the labels changed.
   */
  updateLabels(view: LabelView, locale: string): boolean;
}

/** The camera a layer labels for: its position and where a point falls on the canvas. */
export interface LabelView {
  eye: Cartesian3;
  toCanvas: (position: Cartesian3) => Cartesian2 | undefined;
}

/** What {@link buildGlobeVectorLayer} needs besides the features. */
export interface GlobeVectorInput {
  layerId: string;
  style: VectorStyle;
  collection: FeatureCollection;
  /** File elevation (or null) to drawn height in metres. */
  heightOf: (elevation: number | null) => number;
  /** Elevation of a feature from a joined collection, when the style has a join. */
  elevationOf?: ((properties: Record<string, unknown>) => number | null) | undefined;
  locale: string;
  /** Called when Cesium could not build the layer's polygons (they are then not drawn). */
  onError?: (err: Error) => void;
}

const toCartesian = ([x, y, h]: [number, number, number]) => Cartesian3.fromDegrees(x, y, h);

/** A ring Cesium can tessellate: finite positions, at least three of them distinct. */
function usableRing(ring: Cartesian3[]): boolean {
  if (ring.length < 3 || !ring.every((p) => Number.isFinite(p.x + p.y + p.z))) return false;
  const [a] = ring;
  const b = ring.find((p) => Cartesian3.distanceSquared(p, a!) > 1e-6);
  return (
    b !== undefined &&
    ring.some((p) => Cartesian3.distanceSquared(p, a!) > 1e-6 && Cartesian3.distanceSquared(p, b) > 1e-6)
  );
}

/**
 * A primitive whose failure (a geometry a web worker could not build) is
 * reported and drawn no more, instead of stopping Cesium's render loop and
 * with it the whole scene (spec §8: a vector layer failing is skipped).
 */
function guarded(primitive: Primitive, onError: (err: Error) => void) {
  let failed = false;
  return {
    get show() {
      return primitive.show;
    },
    set show(value: boolean) {
      primitive.show = value;
    },
    update(frameState: unknown) {
      if (failed) return;
      try {
        (primitive as unknown as { update(f: unknown): void }).update(frameState);
      } catch (err) {
        failed = true;
        onError(err as Error);
      }
    },
    isDestroyed: () => primitive.isDestroyed(),
    destroy() {
      primitive.destroy();
    },
  };
}

/**
 * Turns a vector layer's features into Cesium primitives by its style:
 * lines (every polyline with a material of its own: a shared material is
 * destroyed by each polyline that holds it, and the second destroy threw
 * "This object was destroyed" when a layer was unticked), points with labels
 * near the camera, outlined polygons with a light fill, or translucent
 * blocks extruded from the ground to the eaves. Polygons and their outlines
 * are batched into two primitives whose geometries Cesium's web workers
 * build (20,000 crowns would hold the page for seconds otherwise). Every
 * drawn object carries a {@link VectorPick} id for click-to-inspect.
 */
export function buildGlobeVectorLayer(input: GlobeVectorInput): GlobeVectorLayer {
  const { layerId, style, collection, heightOf } = input;
  const features = collection.features;
  // Colours by feature (risk by severity, buffers by zone), made once per distinct colour.
  const colors = new Map<string, Color>();
  const colorOf = (feature: number): Color => {
    const css = featureColor(style, features[feature]?.properties);
    let c = colors.get(css);
    if (!c) {
      c = Color.fromCssColorString(css);
      colors.set(css, c);
    }
    return c;
  };
  const fillOpacity = style.fillOpacity ?? 0.25;
  const lineWidth = style.lineWidth ?? 2;
  const group = new PrimitiveCollection();
  const polygons = style.kind === 'polygons' || style.kind === 'blocks';
  const shapes = vectorShapes(collection, heightOf, {
    polygons,
    ...(style.elevation ? { elevationProperty: style.elevation.property } : {}),
    ...(input.elevationOf ? { elevationOf: input.elevationOf } : {}),
  });
  const picks = features.map((f) => new VectorPick(layerId, f.properties ?? {}));

  const lines = group.add(new PolylineCollection()) as PolylineCollection;
  const addLine = (positions: Cartesian3[], feature: number, width: number) =>
    lines.add({
      positions,
      width,
      material: Material.fromType('Color', { color: colorOf(feature) }),
      id: picks[feature],
    });

  // Points: always in front of the cloud (a top sits among its own returns).
  const points = group.add(new PointPrimitiveCollection()) as PointPrimitiveCollection;
  const isTop = style.kind === 'points';
  const pointPositions: Cartesian3[] = [];
  const pointFeatures: number[] = [];

  const fills: GeometryInstance[] = [];
  const outlines: GeometryInstance[] = [];
  const vertexFormat =
    style.kind === 'blocks' ? PerInstanceColorAppearance.VERTEX_FORMAT : PerInstanceColorAppearance.FLAT_VERTEX_FORMAT;
  const addOutline = (positions: Cartesian3[], feature: number, width: number) =>
    outlines.push(
      new GeometryInstance({
        // Straight segments at the given heights (no geodesic subdivision onto the ellipsoid).
        geometry: new PolylineGeometry({
          positions,
          width,
          arcType: ArcType.NONE,
          vertexFormat: PolylineColorAppearance.VERTEX_FORMAT,
        }),
        id: picks[feature],
        attributes: { color: ColorGeometryInstanceAttribute.fromColor(colorOf(feature)) },
      }),
    );
  for (const shape of shapes) {
    switch (shape.kind) {
      case 'line':
        addLine(shape.positions.map(toCartesian), shape.feature, lineWidth);
        break;
      case 'point': {
        const position = toCartesian(shape.position);
        // A pole (a tower) from its top down by its height, in its own colour.
        const rise = style.pole ? finiteNumber(features[shape.feature]?.properties?.[style.pole.height]) : null;
        if (rise !== null && rise > 0) {
          const [x, y, top] = shape.position;
          addLine([Cartesian3.fromDegrees(x, y, top - rise), position], shape.feature, lineWidth + 2);
        }
        points.add({
          position,
          pixelSize: isTop ? 9 : 6,
          color: colorOf(shape.feature),
          outlineColor: isTop ? Color.WHITE : Color.BLACK,
          outlineWidth: isTop ? 1.5 : 1,
          disableDepthTestDistance: isTop ? Number.POSITIVE_INFINITY : 0,
          id: picks[shape.feature],
        });
        pointPositions.push(position);
        pointFeatures.push(shape.feature);
        break;
      }
      case 'polygon': {
        const properties = features[shape.feature]?.properties ?? {};
        const rings = shape.rings.map((r) => r.map(toCartesian));
        if (!usableRing(rings[0]!)) break;
        const holes = rings.slice(1).filter(usableRing);
        const base = shape.rings[0]![0]![2];
        const rise =
          style.kind === 'blocks' && style.extrusion ? firstFinite(properties, style.extrusion.height) : null;
        const top = rise !== null && rise > 0 ? base + rise : undefined;
        fills.push(
          new GeometryInstance({
            geometry: new PolygonGeometry({
              polygonHierarchy: new PolygonHierarchy(
                rings[0]!,
                holes.map((h) => new PolygonHierarchy(h)),
              ),
              perPositionHeight: true,
              ...(top !== undefined ? { extrudedHeight: top } : {}),
              vertexFormat,
            }),
            id: picks[shape.feature],
            attributes: {
              color: ColorGeometryInstanceAttribute.fromColor(colorOf(shape.feature).withAlpha(fillOpacity)),
            },
          }),
        );
        // Outlines (GeoJSON rings are closed): the rings, and for a block its outer ring at the top too.
        for (const ring of [rings[0]!, ...holes]) addOutline(ring, shape.feature, style.kind === 'blocks' ? 2 : 1.5);
        if (top !== undefined) {
          addOutline(
            shape.rings[0]!.map(([x, y]) => Cartesian3.fromDegrees(x, y, top)),
            shape.feature,
            2,
          );
        }
        break;
      }
    }
  }
  const failed = (err: Error) => input.onError?.(err);
  if (fills.length > 0) {
    group.add(
      guarded(
        new Primitive({
          geometryInstances: fills,
          appearance: new PerInstanceColorAppearance({
            translucent: true,
            flat: style.kind !== 'blocks',
            closed: false,
          }),
          releaseGeometryInstances: true,
        }),
        failed,
      ),
    );
  }
  if (outlines.length > 0) {
    group.add(
      guarded(
        new Primitive({
          geometryInstances: outlines,
          appearance: new PolylineColorAppearance({ translucent: false }),
          releaseGeometryInstances: true,
        }),
        failed,
      ),
    );
  }

  // Labels: only the points nearest to the camera carry one (a few hundred, whatever the layer's size).
  const labelStyle = style.label;
  const labels = labelStyle ? (group.add(new LabelCollection()) as LabelCollection) : null;
  const xyz = new Float64Array(pointPositions.length * 3);
  pointPositions.forEach((p, i) => {
    xyz[i * 3] = p.x;
    xyz[i * 3 + 1] = p.y;
    xyz[i * 3 + 2] = p.z;
  });
  const shown = new Map<number, Label>();
  let labelLocale = '';

  const priorities = pointFeatures.map((f) => finiteNumber(features[f]?.properties?.[labelStyle?.property ?? '']) ?? 0);

  function updateLabels(view: LabelView, locale: string): boolean {
    if (!labels || !labelStyle || labels.isDestroyed()) return false;
    if (locale !== labelLocale) {
      labels.removeAll();
      shown.clear();
      labelLocale = locale;
    }
    const { eye } = view;
    const near = nearestIndices(xyz, [eye.x, eye.y, eye.z], MAX_LABELS, LABEL_DISTANCE);
    const anchors = near.map((i): [number, number] | null => {
      const at = view.toCanvas(pointPositions[i]!);
      return at ? [at.x, at.y] : null;
    });
    const wanted = new Set(
      placeLabels(
        anchors,
        near.map((i) => priorities[i]!),
      ).map((k) => near[k]!),
    );
    let changed = false;
    for (const [i, label] of shown) {
      if (!wanted.has(i)) {
        labels.remove(label);
        shown.delete(i);
        changed = true;
      }
    }
    for (const i of wanted) {
      if (shown.has(i)) continue;
      const feature = pointFeatures[i]!;
      const text = formatLabel(features[feature]?.properties?.[labelStyle.property], labelStyle, locale);
      if (text === null) continue;
      shown.set(
        i,
        labels.add({
          position: pointPositions[i]!,
          text,
          font: '600 13px sans-serif',
          fillColor: Color.WHITE,
          outlineColor: Color.BLACK,
          outlineWidth: 3,
          style: LabelStyle.FILL_AND_OUTLINE,
          verticalOrigin: VerticalOrigin.BOTTOM,
          horizontalOrigin: HorizontalOrigin.CENTER,
          pixelOffset: new Cartesian2(0, -9),
          disableDepthTestDistance: Number.POSITIVE_INFINITY,
          distanceDisplayCondition: new DistanceDisplayCondition(0, LABEL_DISTANCE),
          scaleByDistance: new NearFarScalar(60, 1, LABEL_DISTANCE, 0.65),
          id: picks[feature],
        }),
      );
      changed = true;
    }
    return changed;
  }

  return { primitives: group, updateLabels };
}

/** The feature a pick result holds, if it is one of ours. */
export function vectorPickOf(picked: unknown): VectorPick | null {
  const id = (picked as { id?: unknown } | undefined)?.id;
  return id instanceof VectorPick ? id : null;
}

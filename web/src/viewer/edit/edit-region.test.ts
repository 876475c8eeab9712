import {
  Camera,
  Cartesian3,
  Math as CesiumMath,
  GeographicProjection,
  Matrix4,
  PerspectiveFrustum,
  SceneMode,
  SceneTransforms,
} from 'cesium';
import { describe, expect, it } from 'vitest';
import { MAX_REGION_VERTICES } from './edit.types.js';
import {
  boxOutline,
  insidePolygon,
  lassoOutline,
  mapRegionOf,
  multiplyMatrices,
  pixelToNdc,
  projectToPixel,
  screenRegionContains,
  screenRegionOf,
} from './edit-region.js';

/**
 * A Cesium camera without WebGL: the scene fields `Camera` and
 * `SceneTransforms.worldToWindowCoordinates` read (3D mode, a canvas of
 * `width` × `height` CSS pixels).
 */
function cameraScene(width: number, height: number) {
  const scene = {
    canvas: { clientWidth: width, clientHeight: height },
    drawingBufferWidth: width * 2,
    drawingBufferHeight: height * 2,
    mapProjection: new GeographicProjection(),
    mode: SceneMode.SCENE3D,
    frameState: { mode: SceneMode.SCENE3D, mapProjection: new GeographicProjection() },
    tweens: { add: () => undefined },
    globe: undefined,
    mapMode2D: 0,
  } as unknown as ConstructorParameters<typeof Camera>[0] & { camera: Camera };
  const camera = new Camera(scene);
  const frustum = new PerspectiveFrustum({
    fov: CesiumMath.toRadians(60),
    aspectRatio: width / height,
    near: 1,
    far: 1e8,
  });
  camera.frustum = frustum;
  scene.camera = camera;
  return { scene, camera };
}

describe('screen regions', () => {
  it('multiplies column-major matrices as Cesium does', () => {
    const a = Matrix4.fromTranslation(new Cartesian3(1, 2, 3));
    const b = Matrix4.fromUniformScale(2);
    const want = Matrix4.toArray(Matrix4.multiply(a, b, new Matrix4()));
    expect(multiplyMatrices(Matrix4.toArray(a), Matrix4.toArray(b))).toEqual(want);
  });

  it('projects a world point to the pixel SceneTransforms.worldToWindowCoordinates gives (within 1e-6 px)', () => {
    const width = 1131;
    const height = 777;
    const { scene, camera } = cameraScene(width, height);
    // Looking down at 45° on a place in Arizona, 400 m away.
    const target = Cartesian3.fromDegrees(-111.68, 35.17, 2100);
    camera.lookAt(target, new Cartesian3(120, -250, 300));
    camera.lookAtTransform(Matrix4.IDENTITY);
    const region = screenRegionOf(
      Matrix4.toArray(camera.frustum.projectionMatrix),
      Matrix4.toArray(camera.viewMatrix),
      boxOutline([10, 10], [200, 150]),
      width,
      height,
    );
    let compared = 0;
    for (const [dlon, dlat, dh] of [
      [0, 0, 0],
      [0.0004, 0.0002, 15],
      [-0.0007, 0.0003, -20],
      [0.0011, -0.0009, 40],
    ] as const) {
      const p = Cartesian3.fromDegrees(-111.68 + dlon, 35.17 + dlat, 2100 + dh);
      const cesium = SceneTransforms.worldToWindowCoordinates(scene as never, p);
      const mine = projectToPixel(region.matrix, [p.x, p.y, p.z], width, height);
      expect(cesium).toBeDefined();
      expect(mine).not.toBeNull();
      expect(Math.abs(mine![0] - cesium!.x)).toBeLessThan(1e-6);
      expect(Math.abs(mine![1] - cesium!.y)).toBeLessThan(1e-6);
      compared++;
    }
    expect(compared).toBe(4);
    // The target is at the centre of the view.
    const centre = projectToPixel(region.matrix, [target.x, target.y, target.z], width, height)!;
    expect(centre[0]).toBeCloseTo(width / 2, 6);
    expect(centre[1]).toBeCloseTo(height / 2, 6);
  });

  it('selects the points whose pixel is inside the drawn outline, at every depth, never behind the eye', () => {
    const width = 800;
    const height = 600;
    const { camera } = cameraScene(width, height);
    const target = Cartesian3.fromDegrees(2.35, 48.85, 50);
    camera.lookAt(target, new Cartesian3(0, -300, 300));
    camera.lookAtTransform(Matrix4.IDENTITY);
    const outline = boxOutline([300, 200], [500, 400]);
    const region = screenRegionOf(
      Matrix4.toArray(camera.frustum.projectionMatrix),
      Matrix4.toArray(camera.viewMatrix),
      outline,
      width,
      height,
    );
    const eye = camera.positionWC;
    const dir = camera.directionWC;
    // Points along the ray through the centre: all selected, whatever their depth.
    for (const d of [5, 100, 424, 2000, 50_000]) {
      const p = Cartesian3.add(eye, Cartesian3.multiplyByScalar(dir, d, new Cartesian3()), new Cartesian3());
      expect(screenRegionContains(region, [p.x, p.y, p.z])).toBe(true);
    }
    // The same ray behind the eye: w < 0, never selected.
    const behind = Cartesian3.add(eye, Cartesian3.multiplyByScalar(dir, -424, new Cartesian3()), new Cartesian3());
    expect(screenRegionContains(region, [behind.x, behind.y, behind.z])).toBe(false);
    // A pixel outside the box, through the camera's own pick ray.
    const ray = camera.getPickRay({ x: 600, y: 300 } as never)!;
    const outside = Cartesian3.add(
      ray.origin,
      Cartesian3.multiplyByScalar(ray.direction, 300, new Cartesian3()),
      new Cartesian3(),
    );
    expect(screenRegionContains(region, [outside.x, outside.y, outside.z])).toBe(false);
    const inRay = camera.getPickRay({ x: 499, y: 399 } as never)!;
    const inside = Cartesian3.add(
      inRay.origin,
      Cartesian3.multiplyByScalar(inRay.direction, 300, new Cartesian3()),
      new Cartesian3(),
    );
    expect(screenRegionContains(region, [inside.x, inside.y, inside.z])).toBe(true);
  });

  it('turns pixels into normalized device coordinates, y up', () => {
    expect(pixelToNdc(0, 0, 800, 600)).toEqual([-1, 1]);
    expect(pixelToNdc(800, 600, 800, 600)).toEqual([1, -1]);
    expect(pixelToNdc(400, 150, 800, 600)).toEqual([0, 0.5]);
  });

  it('uses the even-odd rule: the loop of a self-crossing lasso is outside', () => {
    const square: [number, number][] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ];
    expect(insidePolygon(square, 5, 5)).toBe(true);
    expect(insidePolygon(square, 11, 5)).toBe(false);
    // A figure of eight drawn twice around the same square: inside twice is outside.
    const twice = [...square, ...square];
    expect(insidePolygon(twice, 5, 5)).toBe(false);
  });

  it('keeps a lasso to at most 2000 vertices, drops jitter, and rejects a click', () => {
    const circle = Array.from({ length: 10_000 }, (_, i) => {
      const a = (i / 10_000) * Math.PI * 2;
      return [400 + 300 * Math.cos(a), 300 + 300 * Math.sin(a)] as [number, number];
    });
    const out = lassoOutline(circle, 0)!;
    expect(out.length).toBe(MAX_REGION_VERTICES);
    expect(out[0]).toEqual(circle[0]);
    const jitter = lassoOutline([
      [0, 0],
      [0.5, 0.5],
      [50, 0],
      [50.5, 0.2],
      [50, 50],
      [0, 50],
    ])!;
    expect(jitter).toEqual([
      [0, 0],
      [50, 0],
      [50, 50],
      [0, 50],
    ]);
    expect(
      lassoOutline([
        [10, 10],
        [12, 10],
        [12, 12],
      ]),
    ).toBeNull();
  });

  it('makes a map region of 3 vertices or more', () => {
    expect(mapRegionOf([{ lon: 1, lat: 2 }])).toBeNull();
    expect(
      mapRegionOf([
        { lon: 1, lat: 2 },
        { lon: 2, lat: 2 },
        { lon: 2, lat: 3 },
      ]),
    ).toEqual({
      kind: 'map',
      polygon: [
        [1, 2],
        [2, 2],
        [2, 3],
      ],
    });
  });
});

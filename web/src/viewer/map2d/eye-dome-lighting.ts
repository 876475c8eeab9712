import {
  type Effect,
  type EffectContext,
  Layer,
  _LayersPass as LayersPass,
  type PreRenderOptions,
  type WebMercatorViewport,
} from '@deck.gl/core';
import { PointCloudLayer } from '@deck.gl/layers';
import type { Device, Framebuffer, Parameters, Texture } from '@luma.gl/core';
import { Model } from '@luma.gl/engine';
import { metresPerPixel } from '../measure/map-measure.js';
import { cameraDistance, heightPassModule, SHADE_FS, SHADE_VS, shadeModule } from './eye-dome-shading.js';

/**
 * Eye-dome lighting on the 2D map (the display setting the 3D view also
 * follows), in three deck.gl pieces used only while it is on:
 * - {@link EyeDomePointCloudLayer}: the cloud layer, with each point's height;
 * - {@link EyeDomeEffect}: before each frame, draws those layers into its own
 *   framebuffer as a top-down height image (highest point per pixel);
 * - {@link EyeDomeShadeLayer}: right after the clouds, darkens each of their
 *   pixels by the shade of eye-dome-shading.ts; vectors drawn later stay as
 *   they are.
 */

/** Range of the points' heights on the map (metres), shared by the height image and its reading. */
export interface HeightRange {
  minHeight: number;
  maxHeight: number;
}

type HeightProps = HeightRange & {
  /** Height (metres) of each point: binary data as `data.attributes.getHeight`. */
  getHeight?: unknown;
};

/**
 * A PointCloudLayer that also knows each point's height: drawn as usual in the
 * frame, and as packed heights (at a depth making the highest point win) in the
 * effect's height pass.
 */
export class EyeDomePointCloudLayer extends PointCloudLayer<unknown, HeightProps> {
  static override layerName = 'EyeDomePointCloudLayer';
  static override defaultProps = {
    ...PointCloudLayer.defaultProps,
    getHeight: { type: 'accessor', value: 0 },
    minHeight: 0,
    maxHeight: 1,
  };

  override getShaders() {
    const shaders = super.getShaders();
    return { ...shaders, modules: [...shaders.modules, heightPassModule] };
  }

  override initializeState() {
    super.initializeState();
    this.getAttributeManager()!.addInstanced({
      instanceHeights: { size: 1, accessor: 'getHeight', defaultValue: 0 },
    });
  }

  override draw(opts: { uniforms: unknown; shaderModuleProps?: Record<string, { heightPass?: number }> }) {
    const heightPass = opts.shaderModuleProps?.[heightPassModule.name]?.heightPass === 1 ? 1 : 0;
    const model = (this.state as { model?: Model }).model;
    model?.shaderInputs.setProps({
      [heightPassModule.name]: { heightPass, minHeight: this.props.minHeight, maxHeight: this.props.maxHeight },
    });
    super.draw(opts);
  }
}

/** The height pass: only the clouds that know their heights, depth-tested, unblended. */
class HeightPass extends LayersPass {
  override shouldDrawLayer(layer: Layer): boolean {
    return layer instanceof EyeDomePointCloudLayer;
  }

  protected override getLayerParameters(layer: Layer): Parameters {
    return {
      ...(layer.props.parameters as Parameters),
      depthCompare: 'less-equal',
      depthWriteEnabled: true,
      blend: false,
    };
  }
}

/**
 * The deck.gl effect that draws the height image before each frame, into a
 * framebuffer of the canvas' size (RGBA8: 24-bit height and a "point here"
 * alpha, with a depth buffer). Added to the map only while eye-dome lighting
 * is on: it costs one more draw of the clouds per frame.
 */
export class EyeDomeEffect implements Effect {
  id = 'eye-dome-heights';
  props = {};
  private device: Device | null = null;
  private pass: HeightPass | null = null;
  private framebuffer: Framebuffer | null = null;

  setup({ device }: EffectContext): void {
    this.device = device;
    this.pass = new HeightPass(device, { id: 'eye-dome-heights' });
    this.framebuffer = device.createFramebuffer({
      id: 'eye-dome-heights',
      width: 1,
      height: 1,
      colorAttachments: ['rgba8unorm'],
      depthStencilAttachment: 'depth16unorm',
    });
  }

  preRender(opts: PreRenderOptions): void {
    const { pass, framebuffer, device } = this;
    if (opts.isPicking || !pass || !framebuffer || !device) return;
    const canvas = opts.canvasContext ?? device.getDefaultCanvasContext();
    const [width, height] = canvas.getDrawingBufferSize();
    framebuffer.resize({ width, height });
    pass.render({
      ...opts,
      pass: 'eye-dome-heights',
      target: framebuffer,
      isPicking: false,
      clearCanvas: true,
      clearColor: [0, 0, 0, 0],
      shaderModuleProps: { [heightPassModule.name]: { heightPass: 1 } },
    });
  }

  /** The height image of the frame being drawn (null before set-up). */
  get heightTexture(): Texture | null {
    return this.framebuffer?.colorAttachments[0]?.texture ?? null;
  }

  cleanup(): void {
    this.framebuffer?.destroy();
    this.framebuffer = null;
    this.pass = null;
    this.device = null;
  }
}

interface ShadeProps extends HeightRange {
  effect: EyeDomeEffect;
  /** 0.1..5 */
  strength: number;
  /** CSS pixels. */
  radius: number;
}

/**
 * One full-screen triangle that darkens the clouds' pixels by their shade
 * (black drawn with alpha 1 − shade); pixels without a point are discarded.
 */
export class EyeDomeShadeLayer extends Layer<ShadeProps> {
  static override layerName = 'EyeDomeShadeLayer';
  static override defaultProps = {
    strength: 1,
    radius: 1,
    minHeight: 0,
    maxHeight: 1,
    parameters: {
      depthCompare: 'always',
      depthWriteEnabled: false,
      blend: true,
      blendColorOperation: 'add',
      blendColorSrcFactor: 'src-alpha',
      blendColorDstFactor: 'one-minus-src-alpha',
      blendAlphaOperation: 'add',
      blendAlphaSrcFactor: 'zero',
      blendAlphaDstFactor: 'one',
    },
  };

  override initializeState(): void {
    const model = new Model(this.context.device, {
      id: this.props.id,
      vs: SHADE_VS,
      fs: SHADE_FS,
      modules: [shadeModule],
      topology: 'triangle-list',
      vertexCount: 3,
    });
    this.setState({ model });
  }

  // The model takes none of deck.gl's own modules (project, picking): their props are not for it.
  override setShaderModuleProps(): void {}

  override draw(): void {
    const model = (this.state as { model?: Model }).model;
    const texture = this.props.effect.heightTexture;
    if (!model || !texture) return;
    const viewport = this.context.viewport as WebMercatorViewport;
    const pixelRatio = this.context.device.getDefaultCanvasContext().cssToDeviceRatio();
    model.shaderInputs.setProps({
      [shadeModule.name]: {
        strength: this.props.strength,
        radius: this.props.radius * pixelRatio,
        distance: cameraDistance({
          altitude: viewport.altitude,
          height: viewport.height,
          metresPerPixel: metresPerPixel(viewport.latitude, viewport.zoom),
        }),
        minHeight: this.props.minHeight,
        maxHeight: this.props.maxHeight,
      },
    });
    model.setBindings({ eyeDomeHeightTexture: texture });
    model.draw(this.context.renderPass);
  }
}

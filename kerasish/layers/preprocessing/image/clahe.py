"""`ContrastLimitedAdaptiveHistogramEqualization` (CLAHE): histogram
equalization per tile, with clipped histograms and bilinear blending of
the tiles' mappings."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


def _tile_histograms(pixels, grid, tile):
    """`(batch, grid_h, grid_w, channels, 256)` float32 counts."""
    batch, _, _, channels = pixels.shape
    (grid_h, grid_w), (tile_h, tile_w) = grid, tile
    tiles = pixels.reshape(batch, grid_h, tile_h, grid_w, tile_w, channels)
    tiles = tiles.transpose(0, 1, 3, 5, 2, 4).reshape(-1, tile_h * tile_w)
    offsets = np.arange(len(tiles))[:, None] * 256
    counts = np.bincount((tiles + offsets).ravel(),
                         minlength=len(tiles) * 256)
    return counts.reshape(batch, grid_h, grid_w, channels, 256).astype(
        "float32")


def _mappings(hists, clip_limit, tile_area):
    """Each tile's value mapping (clipped, redistributed, normalised CDF)."""
    if clip_limit > 0:
        limit = np.float32(clip_limit * tile_area / 256.0)
        clipped = np.clip(hists, 0, limit)
        excess = np.sum(hists - clipped, axis=-1, keepdims=True)
        hists = clipped + excess / np.float32(256.0)
    cdf = np.cumsum(hists, axis=-1)
    cdf_min = np.min(cdf, axis=-1, keepdims=True)
    denominator = np.float32(tile_area) - cdf_min
    denominator = np.where(denominator == 0, np.float32(1.0), denominator)
    mapping = np.clip((cdf - cdf_min) * np.float32(255.0) / denominator, 0,
                      255)
    # Repeat the border tiles so every pixel has four neighbours.
    return np.pad(mapping, [(0, 0), (1, 1), (1, 1), (0, 0), (0, 0)],
                  mode="edge")


def _neighbours(size, tile, grid):
    """Per row (or column): the two tile indices and the blend weight."""
    position = (np.arange(size, dtype="float32") - np.float32(tile / 2.0)) \
        / np.float32(tile) + np.float32(1.0)
    low = np.floor(position)
    weight = position - low
    low = np.clip(low, 0, grid + 1).astype("int64")
    high = np.clip(low + 1, 0, grid + 1).astype("int64")
    return low, high, weight


def clahe(images, clip_limit, grid):
    """CLAHE of float `images` `(batch, height, width, channels)` in
    `[0, 255]` (Keras's algorithm, in float32)."""
    batch, height, width, channels = images.shape
    grid_h, grid_w = grid
    tile_h, tile_w = -(-height // grid_h), -(-width // grid_w)
    pad_h, pad_w = tile_h * grid_h - height, tile_w * grid_w - width
    if pad_h or pad_w:
        images = np.pad(images, [(0, 0), (0, pad_h), (0, pad_w), (0, 0)],
                        mode="symmetric")
    tiles = np.clip(images.astype("int32"), 0, 255)
    mapping = _mappings(_tile_histograms(tiles, grid, (tile_h, tile_w)),
                        clip_limit, tile_h * tile_w)
    pixels = np.clip(images, 0, 255).astype("int64")
    y0, y1, wy = _neighbours(images.shape[1], tile_h, grid_h)
    x0, x1, wx = _neighbours(images.shape[2], tile_w, grid_w)
    b = np.arange(batch)[:, None, None, None]
    c = np.arange(channels)[None, None, None, :]
    rows = [y[None, :, None, None] for y in (y0, y1)]
    cols = [x[None, None, :, None] for x in (x0, x1)]
    wx, wy = wx[None, None, :, None], wy[None, :, None, None]
    top = mapping[b, rows[0], cols[0], c, pixels] * (1 - wx) + \
        mapping[b, rows[0], cols[1], c, pixels] * wx
    bottom = mapping[b, rows[1], cols[0], c, pixels] * (1 - wx) + \
        mapping[b, rows[1], cols[1], c, pixels] * wx
    result = top * (1 - wy) + bottom * wy
    return result[:, :height, :width, :].astype("float32")


@builtin("keras.layers")
class ContrastLimitedAdaptiveHistogramEqualization(
        BaseImagePreprocessingLayer):
    """Contrast Limited Adaptive Histogram Equalization (CLAHE).

    The image is cut into `tile_grid_size` tiles; each tile's histogram
    (on the `[0, 255]` scale) is clipped at `clip_limit` times the mean
    bin count, the excess spread over all bins, and the resulting
    cumulative histogram used as the tile's mapping. Each pixel blends the
    mappings of its four nearest tiles bilinearly, so there are no tile
    seams. Acts in training and inference; the output keeps the input
    dtype.

    Args:
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        clip_limit: Contrast limit (0 or less: no clipping). Defaults to
            4.0.
        tile_grid_size: `(rows, columns)` of tiles. Defaults to `(8, 8)`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = ContrastLimitedAdaptiveHistogramEqualization(
    ...     tile_grid_size=(2, 2))
    >>> layer(np.random.default_rng(0).uniform(0, 255, (8, 8, 1))).shape
    (8, 8, 1)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), clip_limit=4.0,
                 tile_grid_size=(8, 8), data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if not isinstance(tile_grid_size, (tuple, list)) or \
                len(tile_grid_size) != 2 or \
                any(int(g) != g or g < 1 for g in tile_grid_size):
            raise ValueError("`tile_grid_size` must be a pair of positive "
                             "integers. Received: "
                             f"tile_grid_size={tile_grid_size}")
        self.value_range = value_range
        self.clip_limit = clip_limit
        self.tile_grid_size = tile_grid_size

    def transform_images(self, images, transformation=None, training=True):
        dtype = images.dtype
        values = self._transform_value_range(images, self.value_range,
                                             (0, 255), "float32")
        values = np.asarray(values, "float32")
        if self.data_format == "channels_first":
            values = np.moveaxis(values, 1, -1)
        grid = tuple(int(g) for g in self.tile_grid_size)
        result = Tensor(clahe(values, self.clip_limit, grid))
        result = np.asarray(self._transform_value_range(
            result, (0, 255), self.value_range, "float32"))
        if self.data_format == "channels_first":
            result = np.moveaxis(result, -1, 1)
        return Tensor(result.astype(dtype))

    def _output_dtype(self, input_dtype):
        return input_dtype

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range,
                       "clip_limit": self.clip_limit,
                       "tile_grid_size": self.tile_grid_size,
                       "data_format": self.data_format})
        return config

"""`kerasish.visualization`: draw boxes and masks on images (numpy), and
plot image galleries (matplotlib, `pip install kerasish[plot]`)."""
from kerasish.visualization.draw_bounding_boxes import (  # noqa: F401
    draw_bounding_boxes)
from kerasish.visualization.draw_segmentation_masks import (  # noqa: F401
    draw_segmentation_masks)
from kerasish.visualization.plot_bounding_box_gallery import (  # noqa: F401
    plot_bounding_box_gallery)
from kerasish.visualization.plot_image_gallery import (  # noqa: F401
    plot_image_gallery)
from kerasish.visualization.plot_segmentation_mask_gallery import (  # noqa
    plot_segmentation_mask_gallery)

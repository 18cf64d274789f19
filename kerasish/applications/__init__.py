"""`kerasish.applications`: the architectures of `keras.applications`.

Every model function of Keras 3.15 with the same arguments, layer names,
weights and ImageNet files, plus each family's `preprocess_input` and
`decode_predictions`. `import kerasish` loads this package only on first
use of `kerasish.applications`.

Example:

>>> model = kerasish.applications.MobileNetV2(
...     weights=None, alpha=0.35, input_shape=(32, 32, 3), classes=10)
>>> model.predict(np.zeros((1, 32, 32, 3)), verbose=0).shape
(1, 10)
"""
from kerasish.applications import (  # noqa: F401
    convnext, densenet, efficientnet, efficientnet_v2, imagenet_utils,
    inception_resnet_v2, inception_v3, mobilenet, mobilenet_v2,
    mobilenet_v3, nasnet, resnet, resnet50, resnet_v2, vgg16, vgg19,
    xception)
from kerasish.applications.convnext import (  # noqa: F401
    ConvNeXtBase, ConvNeXtLarge, ConvNeXtSmall, ConvNeXtTiny,
    ConvNeXtXLarge)
from kerasish.applications.densenet import (  # noqa: F401
    DenseNet121, DenseNet169, DenseNet201)
from kerasish.applications.efficientnet import (  # noqa: F401
    EfficientNetB0, EfficientNetB1, EfficientNetB2, EfficientNetB3,
    EfficientNetB4, EfficientNetB5, EfficientNetB6, EfficientNetB7)
from kerasish.applications.efficientnet_v2 import (  # noqa: F401
    EfficientNetV2B0, EfficientNetV2B1, EfficientNetV2B2, EfficientNetV2B3,
    EfficientNetV2L, EfficientNetV2M, EfficientNetV2S)
from kerasish.applications.inception_resnet_v2 import (  # noqa: F401
    InceptionResNetV2)
from kerasish.applications.inception_v3 import InceptionV3  # noqa: F401
from kerasish.applications.mobilenet import MobileNet  # noqa: F401
from kerasish.applications.mobilenet_v2 import MobileNetV2  # noqa: F401
from kerasish.applications.mobilenet_v3 import (  # noqa: F401
    MobileNetV3Large, MobileNetV3Small)
from kerasish.applications.nasnet import (  # noqa: F401
    NASNetLarge, NASNetMobile)
from kerasish.applications.resnet import (  # noqa: F401
    ResNet50, ResNet101, ResNet152)
from kerasish.applications.resnet_v2 import (  # noqa: F401
    ResNet50V2, ResNet101V2, ResNet152V2)
from kerasish.applications.vgg16 import VGG16  # noqa: F401
from kerasish.applications.vgg19 import VGG19  # noqa: F401
from kerasish.applications.xception import Xception  # noqa: F401

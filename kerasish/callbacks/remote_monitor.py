"""`RemoteMonitor`: POST each epoch's logs to an HTTP server."""
import json
import warnings

import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin
import urllib.parse


@builtin("keras.callbacks")
class RemoteMonitor(Callback):
    """Send `{"epoch": e, **logs}` to `root + path` at every epoch end.

    By default the JSON text is sent as the form field `field`
    (`application/x-www-form-urlencoded`); with `send_as_json` the body is
    the JSON itself. Uses only the standard library (Keras needs
    `requests`). An unreachable server gives a warning, not an error; a
    request gives up after 10 seconds so a hung server cannot stall
    training.

    Args:
        root: Server root URL. Defaults to `"http://localhost:9000"`.
        path: Path appended to `root`. Defaults to `"/publish/epoch/end/"`.
        field: Form field holding the JSON (default `"data"`).
        headers: Optional dict of extra HTTP headers.
        send_as_json: Send a JSON body instead of a form.

    Example:

    >>> cb = RemoteMonitor(root="http://127.0.0.1:9000", send_as_json=True)
    >>> cb.root + cb.path
    'http://127.0.0.1:9000/publish/epoch/end/'
    """

    timeout = 10.0

    def __init__(self, root="http://localhost:9000",
                 path="/publish/epoch/end/", field="data", headers=None,
                 send_as_json=False):
        super().__init__()
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def _request(self, payload):
        # urllib.request pulls in ssl and http (~20 ms): imported when used.
        import urllib.request  # lazy: kept out of `import kerasish`
        headers = dict(self.headers or {})
        if self.send_as_json:
            data = json.dumps(payload).encode()
            headers.setdefault("Content-Type", "application/json")
        else:
            data = urllib.parse.urlencode(
                {self.field: json.dumps(payload)}).encode()
            headers.setdefault("Content-Type",
                               "application/x-www-form-urlencoded")
        return urllib.request.Request(self.root + self.path, data=data,
                                      headers=headers, method="POST")

    def on_epoch_end(self, epoch, logs=None):
        payload = {"epoch": epoch}
        for key, value in (logs or {}).items():
            if isinstance(value, (np.ndarray, np.generic)):
                value = value.item()
            payload[key] = value
        import urllib.error  # lazy: kept out of `import kerasish`
        import urllib.request  # lazy: kept out of `import kerasish`
        try:
            with urllib.request.urlopen(self._request(payload),
                                        timeout=self.timeout) as response:
                response.read()
        except (urllib.error.URLError, OSError, ValueError):
            warnings.warn("Could not reach RemoteMonitor root server at "
                          f"{self.root}", stacklevel=2)

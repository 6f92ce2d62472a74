"""The blessed helpers plugins may import: scrolling (and, as they land, more).

- ``ScrollHelper`` (``shared.common.scroll_helper``): a scrolling strip of text or images.
- ``scroll_config.configure()`` (``shared.common.scroll_config``): a crisp speed, as a
  whole-pixel step per presented frame plus the display manager's frame hold.
"""

from shared.common import scroll_config
from shared.common.scroll_config import ScrollConfig, configure
from shared.common.scroll_helper import ScrollHelper

__all__ = ["ScrollConfig", "ScrollHelper", "configure", "scroll_config"]

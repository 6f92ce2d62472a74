import time

from src.skin_system import ScoreboardSkin

BLUE = (0, 0, 200)


class HalfSkin(ScoreboardSkin):
    def render_live(self, ctx, game):
        if self.options.get("raise_live"):
            raise RuntimeError("live broke")
        ctx.draw.rectangle((0, 0, ctx.width - 1, 3), fill=BLUE)
        return True

    def render_recent(self, ctx, game):
        return False

    def render_upcoming(self, ctx, game):
        time.sleep(float(self.options.get("upcoming_seconds", 0.2)))
        ctx.draw.rectangle((0, 0, ctx.width - 1, 3), fill=BLUE)
        return True

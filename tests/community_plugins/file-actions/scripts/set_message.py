import json
import os
import sys

params = json.load(sys.stdin)
message = str(params.get("message", "hello"))[:40]
here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(here, "message.txt"), "w") as handle:
    handle.write(message)
print(json.dumps({"status": "success", "message": f"message set to {message}",
                  "length": len(message)}))

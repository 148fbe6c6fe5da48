"""Times the web page's replies: random Connect Four 7x6 games against `games-cli serve`.

Usage: python3 scripts/web-replies.py [GAMES=100] [reply|analysis] [BINARY=target/release/games-cli]

Starts `games-cli serve --port 0 --time-budget 60`, then plays GAMES games in which one side
(the solver's, first or second at random) asks the server for its move and the other plays
uniformly random columns (seeded: the same games every run). `reply` asks for the solver's move
alone (`"reply": true, "analyze": false`, what the page asks for); `analysis` asks for the whole
analysis and plays its best move (what a page that shows every move's value and the principal
variation before moving would wait for). Prints the number of replies, their median and worst
time (a whole HTTP request each) and how many took over a second.
"""
import json
import random
import subprocess
import sys
import time
import urllib.request

games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
mode = sys.argv[2] if len(sys.argv) > 2 else "reply"
binary = sys.argv[3] if len(sys.argv) > 3 else "target/release/games-cli"
server = subprocess.Popen([binary, "serve", "--port", "0", "--time-budget", "60"], stdout=subprocess.PIPE, text=True)
url = server.stdout.readline().split("open ")[1].strip()


def post(body):
    request = urllib.request.Request(
        url + "api/analyze", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as reply:
        return json.loads(reply.read())


rng = random.Random(76)
times = []
worst = (0.0, "")
try:
    for _ in range(games):
        moves = []
        solver_side = rng.randrange(2)
        while True:
            board = post({"game": "connect-four", "moves": moves, "analyze": False})
            if board["finished"]:
                break
            if len(moves) % 2 == solver_side:
                start = time.time()
                if mode == "analysis":
                    move = post({"game": "connect-four", "moves": moves})["report"]["moves"][0]["move"]
                else:
                    move = post({"game": "connect-four", "moves": moves, "analyze": False, "reply": True})["reply"]
                took = time.time() - start
                times.append(took)
                if took > worst[0]:
                    worst = (took, "".join(moves))
                moves.append(move)
            else:
                moves.append(rng.choice([m["move"] for m in board["board"]["moves"]]))
finally:
    server.kill()
times.sort()
print(
    f"{mode}: {games} games, {len(times)} replies: median {times[len(times) // 2]:.3f} s, "
    f"worst {worst[0]:.3f} s (after {worst[1]!r}), over 1 s: {sum(t > 1 for t in times)}"
)

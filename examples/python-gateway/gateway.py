#!/usr/bin/env python3
"""An example Sunward gateway in Python, built only from docs/gateway-protocol.md and docs/register-maps.

It plays one three-phase SunSpec inverter (register map `sunspec-inverter-3p`) behind a data logger:
connects with its SN and registration key, subscribes to its command and refusal topics, publishes its
status, reports raw Modbus register blocks every --interval seconds, and answers commands (read, write,
set, boot, shutdown, configure). Needs only paho-mqtt (Debian: python3-paho-mqtt, 1.6 or 2.x).

    python3 gateway.py --host 127.0.0.1 --port 1883 --sn GW1000001 --key 3f9a0c12be7d4e65 --device IN1000001

Log lines go to stdout, one JSON object each, so a test (or a person) can follow what happens.
"""
import argparse
import json
import re
import signal
import sys
import threading
import time

import paho.mqtt.client as mqtt

ROOT = "sunward/v1/gw"
PROTO = "sunspec-inverter-3p"

# Register addresses from docs/register-maps/sunspec-inverter-3p.md (holding registers, function code 3).
PHV = (40080, 40081, 40082)  # PhVphA..C, scaled by V_SF
V_SF, W, W_SF, HZ, HZ_SF, WH, WH_SF, ST, EVT1 = 40083, 40084, 40085, 40086, 40087, 40094, 40096, 40108, 40110
CONN, WMAXLIMPCT, WMAXLIM_ENA, WMAXLIMPCT_SF = 40126, 40127, 40131, 40145
WRITABLE = {CONN: (0, 1), WMAXLIMPCT: (0, 100), WMAXLIM_ENA: (0, 1)}
POINTS = {"Conn": CONN, "WMaxLimPct": WMAXLIMPCT, "WMaxLim_Ena": WMAXLIM_ENA}
# The blocks a report carries: the inverter model's measurements and the controls.
BLOCKS = ((40072, 40), (40126, 20))
RATED_W = 5000
SERVER_ADDRESS = re.compile(r"^[A-Za-z0-9.-]{1,253}:\d{1,5}$")


def log(event, **fields):
    print(json.dumps({"event": event, **fields}), flush=True)


class Inverter:
    """A register image that changes like a small inverter in daylight."""

    def __init__(self):
        self.registers = {}
        self.energy_wh = 1_000_000
        self.set(V_SF, -1)
        self.set(HZ_SF, -2)
        self.set(W_SF, 0)
        self.set(WH_SF, 0)
        self.set(WMAXLIMPCT_SF, 0)
        self.set(CONN, 1)
        self.set(WMAXLIMPCT, 100)
        self.set(WMAXLIM_ENA, 0)

    def set(self, address, value):
        self.registers[address] = value & 0xFFFF

    def get(self, address):
        return self.registers.get(address, 0xFFFF)

    def step(self, seconds):
        connected = self.get(CONN) == 1
        limit = self.get(WMAXLIMPCT) if self.get(WMAXLIM_ENA) == 1 else 100
        power = int(min(3200 + 400 * ((time.time() // 60) % 3), RATED_W * limit / 100)) if connected else 0
        self.energy_wh += round(power * seconds / 3600)
        self.set(W, power)
        self.set(WH, self.energy_wh >> 16)
        self.set(WH + 1, self.energy_wh & 0xFFFF)
        self.set(HZ, 5000)
        for address in PHV:
            self.set(address, 2300)
        self.set(ST, 4 if connected else 2)  # SunSpec St: 4 MPPT, 2 sleeping
        self.set(EVT1, 0)
        self.set(EVT1 + 1, 0)

    def block(self, start, count):
        return "".join(f"{self.get(start + i):04X}" for i in range(count))


class Gateway:
    def __init__(self, args):
        self.args = args
        self.sn = args.sn
        self.inverter = Inverter()
        self.seq = 0
        self.config = {"serverAddress": f"{args.host}:{args.port}", "locked": False, "digitalOutput": False}
        self.subscribed = threading.Event()
        self.client = self._client()

    def topic(self, kind):
        return f"{ROOT}/{self.sn}/{kind}"

    def _client(self):
        # Client id = user name = SN; persistent session so QoS 1 messages survive a reconnect.
        try:
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=self.sn, clean_session=False)
        except AttributeError:  # paho-mqtt 1.x
            client = mqtt.Client(client_id=self.sn, clean_session=False)
        client.username_pw_set(self.sn, self.args.key)
        client.will_set(self.topic("status"), json.dumps({"v": 1, "online": False}), qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=60)
        client.on_connect = self.on_connect
        client.on_subscribe = self.on_subscribe
        client.on_message = self.on_message
        return client

    def on_connect(self, client, _userdata, flags, rc):
        if rc != 0:
            log("connect_refused", rc=rc)  # 4: unknown SN or wrong key, 5: locked for a while
            return
        log("connected", session_present=bool(flags.get("session present")))
        # Commands and refusal answers first; the status once the SUBACK is in.
        client.subscribe([(self.topic("cmd"), 1), (self.topic("report/refused"), 1), (self.topic("reply/refused"), 1)])

    def on_subscribe(self, client, _userdata, _mid, granted_qos):
        if any(q == 0x80 for q in granted_qos):
            log("subscribe_refused", granted=list(granted_qos))
        status = {"v": 1, "online": True, "fw": "py-1.0.0", "hw": "PY-GW", "comm": "Ethernet", "interval": self.args.interval, "config": self.config}
        client.publish(self.topic("status"), json.dumps(status), qos=1, retain=True)
        self.subscribed.set()

    def on_message(self, _client, _userdata, message):
        try:
            payload = json.loads(message.payload.decode("utf-8"))
        except ValueError:
            log("unreadable", topic=message.topic)
            return
        if message.topic == self.topic("report/refused"):
            log("report_refused", **payload)
        elif message.topic == self.topic("reply/refused"):
            log("reply_refused", **payload)
        elif message.topic == self.topic("cmd"):
            self.handle_command(payload)

    def reply(self, command_id, status, **fields):
        body = {"v": 1, "id": command_id, "status": status, **fields}
        self.client.publish(self.topic("reply"), json.dumps(body), qos=1)
        log("replied", id=command_id, status=status, error=fields.get("error"))

    def handle_command(self, command):
        command_id = command.get("id")
        op = command.get("op")
        if not isinstance(command_id, str) or command.get("v") != 1:
            log("command_ignored", command=command)
            return
        log("command", id=command_id, op=op, device=command.get("device"))
        expires = command.get("expiresAt")
        if isinstance(expires, (int, float)) and expires < time.time() * 1000:
            return self.reply(command_id, "error", error="expired")
        if op == "configure":
            return self.configure(command_id, command.get("config"))
        if self.config["locked"]:
            return self.reply(command_id, "error", error="locked", message="the gateway is locked")
        if command.get("device") != self.args.device:
            return self.reply(command_id, "error", error="device_offline", message="no such device behind this gateway")
        inverter = self.inverter
        if op == "read":
            fc, addr, count = command.get("fc"), command.get("addr"), command.get("count")
            if fc not in (3, 4) or not isinstance(addr, int) or not isinstance(count, int) or not 1 <= count <= 125:
                return self.reply(command_id, "error", error="bad_request", message="read needs fc 3 or 4, addr and count 1-125")
            return self.reply(command_id, "ok", hex=inverter.block(addr, count))
        if op == "write":
            hex_text, addr = command.get("hex") or "", command.get("addr")
            values = [int(hex_text[i : i + 4], 16) for i in range(0, len(hex_text), 4)]
            if command.get("fc") not in (6, 16) or not isinstance(addr, int) or not values:
                return self.reply(command_id, "error", error="bad_request")
            if any(addr + i not in WRITABLE for i in range(len(values))):
                return self.reply(command_id, "error", error="unsupported", message="not writable")
            for i, value in enumerate(values):
                inverter.set(addr + i, value)
            return self.reply(command_id, "ok")
        if op in ("boot", "shutdown"):
            inverter.set(CONN, 1 if op == "boot" else 0)
            inverter.step(0)
            return self.reply(command_id, "ok")
        if op == "set":
            params = command.get("params") or {}
            for point, value in params.items():
                if point not in POINTS:
                    return self.reply(command_id, "error", error="unsupported", message=f"{point} is not writable")
                low, high = WRITABLE[POINTS[point]]
                if not low <= value <= high:
                    return self.reply(command_id, "error", error="out_of_range", message=f"{point} must be within {low} ~ {high}")
            for point, value in params.items():
                inverter.set(POINTS[point], int(value))
            return self.reply(command_id, "ok", values=params)
        return self.reply(command_id, "error", error="unsupported", message=f"{op} is not supported by this gateway")

    def configure(self, command_id, config):
        if not isinstance(config, dict) or not config:
            return self.reply(command_id, "error", error="bad_request", message="config missing")
        if self.config["locked"] and config.get("locked") is not False:
            return self.reply(command_id, "error", error="locked", message="the gateway is locked")
        address = config.get("serverAddress")
        if address is not None and not (isinstance(address, str) and SERVER_ADDRESS.match(address)):
            return self.reply(command_id, "error", error="bad_request", message="serverAddress")
        for field in ("serverAddress", "locked", "digitalOutput"):
            if field in config:
                self.config[field] = config[field]
        if "connectionPassword" in config:
            self.config["passwordSetAt"] = int(time.time() * 1000)
        return self.reply(command_id, "ok", config=self.config)

    def report(self):
        self.inverter.step(self.args.interval)
        self.seq += 1
        blocks = [{"fc": 3, "addr": start, "hex": self.inverter.block(start, count)} for start, count in BLOCKS]
        body = {"v": 1, "seq": self.seq, "ts": int(time.time() * 1000), "devices": [{"sn": self.args.device, "proto": PROTO, "blocks": blocks}]}
        info = self.client.publish(self.topic("report"), json.dumps(body), qos=1)
        log("reported", seq=self.seq, power_w=self.inverter.get(W), mid=info.mid)

    def run(self):
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        self.client.connect_async(self.args.host, self.args.port, keepalive=60)
        self.client.loop_start()
        if not self.subscribed.wait(30):
            log("not_connected")
            self.client.loop_stop()
            return 1
        while not stop.is_set():
            self.report()
            stop.wait(self.args.interval)
        # A clean stop: the broker publishes no will, so say offline ourselves.
        self.client.publish(self.topic("status"), json.dumps({"v": 1, "online": False}), qos=1, retain=True).wait_for_publish(5)
        self.client.disconnect()
        self.client.loop_stop()
        log("stopped")
        return 0


def main():
    parser = argparse.ArgumentParser(description="Example Sunward gateway with one SunSpec inverter")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1883)
    parser.add_argument("--sn", required=True, help="the gateway's SN (client id and user name)")
    parser.add_argument("--key", required=True, help="its registration key (password)")
    parser.add_argument("--device", required=True, help="the inverter's SN")
    parser.add_argument("--interval", type=int, default=300, help="seconds between reports")
    return Gateway(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())

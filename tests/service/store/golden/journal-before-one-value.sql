BEGIN TRANSACTION;
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO "counters" VALUES('seq',17);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    input_id INTEGER REFERENCES inputs(id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "events" VALUES(1,1,'game','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.401Z","seq":1,"event":"started","winner":null,"team":null,"scores":[0,0],"team_scores":[],"names":["Player 1","Player 2"],"rules":"walnut","target":100,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(2,NULL,'alert','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.408Z","seq":2,"code":"CAMERA_OFFLINE","severity":"fault","message":"The camera is offline: plays are not seen. unplugged","resolved":false,"id":"camera_offline-2","game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(3,2,'play','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.416Z","seq":3,"hand":1,"seat":null,"tile":"6-6","points":0,"ends_total":12,"score":0,"announce":[],"xa":450,"ya":288,"xb":450,"yb":312,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(4,2,'alert','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.416Z","seq":4,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":false,"id":"lead_unknown-3","tile":"6-6","game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(5,3,'lead','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.422Z","seq":5,"hand":1,"seat":1,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(6,3,'alert','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.416Z","seq":6,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":true,"id":"lead_unknown-3","tile":"6-6","game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(7,4,'play','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.432Z","seq":7,"hand":1,"seat":0,"tile":"6-4","points":0,"ends_total":16,"score":0,"announce":[],"xa":474,"ya":300,"xb":498,"yb":300,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(8,6,'play','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.448Z","seq":8,"hand":1,"seat":1,"tile":"1-1","points":0,"ends_total":14,"score":0,"announce":[],"xa":522,"ya":288,"xb":522,"yb":312,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(9,8,'hand','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.468Z","seq":9,"hand":1,"result":"blocked","winner":0,"team":null,"points":1,"pips":[20,26],"scores":[1,0],"team_scores":[],"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(10,10,'play','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.488Z","seq":10,"hand":2,"seat":null,"tile":"5-5","points":10,"ends_total":10,"score":0,"announce":[],"xa":450,"ya":288,"xb":450,"yb":312,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(11,10,'alert','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.488Z","seq":11,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":false,"id":"lead_unknown-10","tile":"5-5","game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(12,11,'lead','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.496Z","seq":12,"hand":2,"seat":0,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(13,11,'alert','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.488Z","seq":13,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":true,"id":"lead_unknown-10","tile":"5-5","game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(14,12,'play','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.503Z","seq":14,"hand":2,"seat":1,"tile":"5-3","points":0,"ends_total":13,"score":0,"announce":[],"xa":474,"ya":300,"xb":498,"yb":300,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(15,13,'play','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.513Z","seq":15,"hand":2,"seat":0,"tile":"3-3","points":0,"ends_total":16,"score":11,"announce":[],"xa":522,"ya":288,"xb":522,"yb":312,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(16,14,'undo','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.523Z","seq":16,"hand":2,"undone":15,"points":0,"draws":0,"game_id":"20261207T093109401Z"}',0);
INSERT INTO "events" VALUES(17,NULL,'alert','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.532Z","seq":17,"code":"NOT_TOUCHING","severity":"illegal","message":"6-2 does not join any open end.","resolved":false,"id":"not_touching-17","seat":0,"tile":"6-2","xa":100,"ya":100,"xb":124,"yb":100,"game_id":"20261207T093109401Z"}',0);
CREATE TABLE inputs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL
);
INSERT INTO "inputs" VALUES(1,'{"action":"new_game","rules":"walnut","seats":2,"language":"en","game_id":"20261207T093109401Z"}');
INSERT INTO "inputs" VALUES(2,'{"action":"play","tile":"6-6","xa":450,"ya":288,"xb":450,"yb":312}');
INSERT INTO "inputs" VALUES(3,'{"action":"lead","seat":1}');
INSERT INTO "inputs" VALUES(4,'{"action":"play","tile":"6-4","node":0,"edge":"side0","pip":6,"xa":474,"ya":300,"xb":498,"yb":300}');
INSERT INTO "inputs" VALUES(5,'{"action":"correct","tile":"6-4","as":"6-1"}');
INSERT INTO "inputs" VALUES(6,'{"action":"play","tile":"1-1","node":1,"edge":"low","pip":1,"xa":522,"ya":288,"xb":522,"yb":312}');
INSERT INTO "inputs" VALUES(7,'{"action":"end_hand"}');
INSERT INTO "inputs" VALUES(8,'{"action":"confirm","tiles":[["6-0","5-0","4-0","3-0","2-0","0-0"],["5-2","4-2","3-3","3-1","2-1"]]}');
INSERT INTO "inputs" VALUES(9,'{"action":"next_hand"}');
INSERT INTO "inputs" VALUES(10,'{"action":"play","tile":"5-5","xa":450,"ya":288,"xb":450,"yb":312}');
INSERT INTO "inputs" VALUES(11,'{"action":"lead","seat":0}');
INSERT INTO "inputs" VALUES(12,'{"action":"play","tile":"5-3","node":0,"edge":"side0","pip":5,"xa":474,"ya":300,"xb":498,"yb":300}');
INSERT INTO "inputs" VALUES(13,'{"action":"play","tile":"3-3","node":1,"edge":"low","pip":3,"xa":522,"ya":288,"xb":522,"yb":312}');
INSERT INTO "inputs" VALUES(14,'{"action":"undo"}');
CREATE TABLE kv (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO "kv" VALUES('table','{"game_id":"20261207T093109401Z","standing":[["source:camera",2],["NOT_TOUCHING:6-2",17]],"sources":{"camera":false,"board":true},"zone_counts":[["6-0","5-0","4-0","3-0","2-0","0-0"],["5-2","4-2","3-3","3-1","2-1"]],"reconciler":{"standing":{"code":"NOT_TOUCHING","tile":"6-2","coords":[100,100,124,100],"message":"6-2 does not join any open end.","seat":0,"reason":"not_touching"},"hand":2,"counts":null,"cleared":false,"known":["5-5","5-3"],"ignored":[[3,3,522,288,522,312,1.0]],"aliases":[],"looks":9,"first_seen":[["3-3",8],["6-2",9]],"surface":[[5,5,450,288,450,312,1.0],[5,3,474,300,498,300,1.0],[3,3,522,288,522,312,1.0],[6,2,100,100,124,100,1.0]]}}');
CREATE TABLE replies (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    cmd_id TEXT NOT NULL UNIQUE,
    reply TEXT NOT NULL
);
INSERT INTO "replies" VALUES(1,'c1','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.421Z","id":"c1","ok":true,"error":null}');
INSERT INTO "replies" VALUES(2,'c2','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.440Z","id":"c2","ok":true,"error":null}');
INSERT INTO "replies" VALUES(3,'c3','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.456Z","id":"c3","ok":true,"error":null}');
INSERT INTO "replies" VALUES(4,'c4','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.468Z","id":"c4","ok":true,"error":null}');
INSERT INTO "replies" VALUES(5,'c5','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.496Z","id":"c5","ok":true,"error":null}');
INSERT INTO "replies" VALUES(6,'c6','{"v":1,"table":"t1","ts":"2026-12-07T09:31:09.523Z","id":"c6","ok":true,"error":null}');
CREATE INDEX events_pending ON events(seq) WHERE acked = 0;
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('inputs',14);
INSERT INTO "sqlite_sequence" VALUES('replies',6);
COMMIT;

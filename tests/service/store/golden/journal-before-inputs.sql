BEGIN TRANSACTION;
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO "counters" VALUES('seq',25);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    input_id INTEGER REFERENCES inputs(id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "events" VALUES(1,1,'game','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.199Z","seq":1,"event":"started","winner":null,"team":null,"scores":[0,0],"team_scores":[],"names":["Player 1","Player 2"],"rules":"walnut","target":100,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(2,2,'draw','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.203Z","seq":2,"hand":1,"seat":0,"count":1,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(3,3,'draw','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.204Z","seq":3,"hand":1,"seat":1,"count":1,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(4,4,'play','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.205Z","seq":4,"hand":1,"seat":null,"tile":"6-6","points":0,"ends_total":12,"score":0,"announce":[],"xa":450,"ya":288,"xb":450,"yb":312,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(5,4,'alert','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.205Z","seq":5,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":false,"id":"lead_unknown-4","tile":"6-6","game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(6,5,'lead','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.206Z","seq":6,"hand":1,"seat":1,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(7,5,'alert','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.205Z","seq":7,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":true,"id":"lead_unknown-4","tile":"6-6","game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(8,6,'play','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.207Z","seq":8,"hand":1,"seat":0,"tile":"6-4","points":0,"ends_total":16,"score":0,"announce":[],"xa":474,"ya":300,"xb":498,"yb":300,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(9,8,'play','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.209Z","seq":9,"hand":1,"seat":1,"tile":"1-1","points":0,"ends_total":14,"score":0,"announce":[],"xa":522,"ya":288,"xb":522,"yb":312,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(10,9,'draw','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.209Z","seq":10,"hand":1,"seat":0,"count":2,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(11,10,'pass','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.210Z","seq":11,"hand":1,"seat":0,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(12,11,'play','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.211Z","seq":12,"hand":1,"seat":1,"tile":"5-1","points":0,"ends_total":17,"score":0,"announce":[],"xa":570,"ya":300,"xb":546,"yb":300,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(13,12,'undo','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.212Z","seq":13,"hand":1,"undone":12,"points":0,"draws":0,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(14,16,'hand','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.215Z","seq":14,"hand":1,"result":"blocked","winner":1,"team":null,"points":4,"pips":[42,23],"scores":[0,4],"team_scores":[],"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(15,18,'play','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.216Z","seq":15,"hand":2,"seat":null,"tile":"4-4","points":0,"ends_total":8,"score":0,"announce":[],"xa":450,"ya":288,"xb":450,"yb":312,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(16,18,'alert','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.216Z","seq":16,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":false,"id":"lead_unknown-15","tile":"4-4","game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(17,19,'lead','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.217Z","seq":17,"hand":2,"seat":0,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(18,19,'alert','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.216Z","seq":18,"code":"LEAD_UNKNOWN","severity":"warning","message":"Who led? Press your button or tap your seat.","resolved":true,"id":"lead_unknown-15","tile":"4-4","game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(19,20,'play','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.218Z","seq":19,"hand":2,"seat":1,"tile":"4-2","points":10,"ends_total":10,"score":14,"announce":[],"xa":474,"ya":300,"xb":498,"yb":300,"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(20,22,'hand','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.220Z","seq":20,"hand":2,"result":"blocked","winner":0,"team":null,"points":2,"pips":[17,26],"scores":[2,14],"team_scores":[],"game_id":"20261129T025505198Z"}',0);
INSERT INTO "events" VALUES(21,25,'game','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.224Z","seq":21,"event":"started","winner":null,"team":null,"scores":[0,0],"team_scores":[],"names":["Ana","Bo"],"rules":"walnut","target":50,"game_id":"20261129T025505221Z","tournament":"Otoño","round":2,"players":["p1","p2"],"ends_at":"2026-11-01T20:30:00.000Z"}',0);
INSERT INTO "events" VALUES(22,26,'play','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.225Z","seq":22,"hand":1,"seat":null,"tile":"5-5","points":10,"ends_total":10,"score":0,"announce":[],"xa":450,"ya":288,"xb":450,"yb":312,"game_id":"20261129T025505221Z"}',0);
INSERT INTO "events" VALUES(23,26,'alert','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.225Z","seq":23,"code":"LEAD_UNKNOWN","severity":"warning","message":"¿Quién salió? Pulse su botón o toque su asiento.","resolved":false,"id":"lead_unknown-22","tile":"5-5","game_id":"20261129T025505221Z"}',0);
INSERT INTO "events" VALUES(24,27,'lead','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.226Z","seq":24,"hand":1,"seat":0,"game_id":"20261129T025505221Z"}',0);
INSERT INTO "events" VALUES(25,27,'alert','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.225Z","seq":25,"code":"LEAD_UNKNOWN","severity":"warning","message":"¿Quién salió? Pulse su botón o toque su asiento.","resolved":true,"id":"lead_unknown-22","tile":"5-5","game_id":"20261129T025505221Z"}',0);
CREATE TABLE inputs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL
);
INSERT INTO "inputs" VALUES(1,'{"input":"new_game","rules":"walnut","seats":2,"names":null,"target":null,"language":"en","game_id":"20261129T025505198Z"}');
INSERT INTO "inputs" VALUES(2,'{"seat":0,"count":1,"input":"draw"}');
INSERT INTO "inputs" VALUES(3,'{"seat":1,"count":1,"input":"draw"}');
INSERT INTO "inputs" VALUES(4,'{"input":"play","tile":"6-6","coords":[450,288,450,312]}');
INSERT INTO "inputs" VALUES(5,'{"seat":1,"input":"lead"}');
INSERT INTO "inputs" VALUES(6,'{"input":"play","tile":"6-4","node":0,"edge":2,"pip":6,"coords":[474,300,498,300]}');
INSERT INTO "inputs" VALUES(7,'{"tile":"6-4","as":"6-1","input":"correct"}');
INSERT INTO "inputs" VALUES(8,'{"input":"play","tile":"1-1","node":1,"edge":1,"pip":1,"coords":[522,288,522,312]}');
INSERT INTO "inputs" VALUES(9,'{"seat":0,"count":2,"input":"draw"}');
INSERT INTO "inputs" VALUES(10,'{"seat":0,"input":"pass"}');
INSERT INTO "inputs" VALUES(11,'{"input":"play","tile":"5-1","node":2,"edge":3,"pip":1,"coords":[570,300,546,300]}');
INSERT INTO "inputs" VALUES(12,'{"input":"undo"}');
INSERT INTO "inputs" VALUES(13,'{"seat":0,"name":"Ana","input":"rename"}');
INSERT INTO "inputs" VALUES(14,'{"input":"end_hand"}');
INSERT INTO "inputs" VALUES(15,'{"seat":0,"tiles":["0-0","2-0","3-0","4-0","5-0","2-2","3-2","4-2","5-2","3-3"],"input":"count"}');
INSERT INTO "inputs" VALUES(16,'{"seat":1,"pips":23,"input":"count"}');
INSERT INTO "inputs" VALUES(17,'{"input":"next_hand"}');
INSERT INTO "inputs" VALUES(18,'{"input":"play","tile":"4-4","coords":[450,288,450,312]}');
INSERT INTO "inputs" VALUES(19,'{"seat":0,"input":"lead"}');
INSERT INTO "inputs" VALUES(20,'{"input":"play","tile":"4-2","node":0,"edge":2,"pip":4,"coords":[474,300,498,300]}');
INSERT INTO "inputs" VALUES(21,'{"input":"end_hand"}');
INSERT INTO "inputs" VALUES(22,'{"input":"confirm","tiles":[["6-0","5-0","3-0","2-0","1-0","0-0"],["6-1","5-1","3-1","2-2","2-1","1-1"]]}');
INSERT INTO "inputs" VALUES(23,'{"input":"next_hand"}');
INSERT INTO "inputs" VALUES(24,'{"input":"redeal"}');
INSERT INTO "inputs" VALUES(25,'{"rules":"walnut","seats":2,"target":50,"language":"es","tournament":"Otoño","round":2,"players":["p1","p2"],"ends_at":"2026-11-01T20:30:00.000Z","input":"new_game","names":["Ana","Bo"],"teams":null,"game_id":"20261129T025505221Z"}');
INSERT INTO "inputs" VALUES(26,'{"input":"play","tile":"5-5","coords":[450,288,450,312]}');
INSERT INTO "inputs" VALUES(27,'{"seat":0,"input":"lead"}');
INSERT INTO "inputs" VALUES(28,'{"input":"time","at":"2026-11-01T20:31:00.000Z"}');
CREATE TABLE kv (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO "kv" VALUES('table','{"game_id":"20261129T025505221Z","standing":[],"sources":{},"zone_counts":null,"reconciler":{"standing":null,"hand":1,"counts":null,"cleared":false,"known":["5-5"],"ignored":[],"aliases":[],"looks":1,"first_seen":[["5-5",1]],"surface":[[5,5,450,288,450,312,1.0]]}}');
CREATE TABLE replies (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    cmd_id TEXT NOT NULL UNIQUE,
    reply TEXT NOT NULL
);
INSERT INTO "replies" VALUES(1,'c1','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.202Z","id":"c1","ok":true,"error":null}');
INSERT INTO "replies" VALUES(2,'c2','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.204Z","id":"c2","ok":true,"error":null}');
INSERT INTO "replies" VALUES(3,'c3','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.206Z","id":"c3","ok":true,"error":null}');
INSERT INTO "replies" VALUES(4,'c4','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.208Z","id":"c4","ok":true,"error":null}');
INSERT INTO "replies" VALUES(5,'c5','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.209Z","id":"c5","ok":true,"error":null}');
INSERT INTO "replies" VALUES(6,'c6','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.210Z","id":"c6","ok":true,"error":null}');
INSERT INTO "replies" VALUES(7,'c7','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.212Z","id":"c7","ok":true,"error":null}');
INSERT INTO "replies" VALUES(8,'c8','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.213Z","id":"c8","ok":true,"error":null}');
INSERT INTO "replies" VALUES(9,'c9','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.214Z","id":"c9","ok":true,"error":null}');
INSERT INTO "replies" VALUES(10,'c10','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.214Z","id":"c10","ok":true,"error":null}');
INSERT INTO "replies" VALUES(11,'c11','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.215Z","id":"c11","ok":true,"error":null}');
INSERT INTO "replies" VALUES(12,'c12','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.217Z","id":"c12","ok":true,"error":null}');
INSERT INTO "replies" VALUES(13,'c13','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.218Z","id":"c13","ok":true,"error":null}');
INSERT INTO "replies" VALUES(14,'c14','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.220Z","id":"c14","ok":true,"error":null}');
INSERT INTO "replies" VALUES(15,'c15','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.221Z","id":"c15","ok":true,"error":null}');
INSERT INTO "replies" VALUES(16,'c16','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.224Z","id":"c16","ok":true,"error":null}');
INSERT INTO "replies" VALUES(17,'c17','{"v":1,"table":"t1","ts":"2026-11-29T02:55:05.226Z","id":"c17","ok":true,"error":null}');
CREATE INDEX events_pending ON events(seq) WHERE acked = 0;
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('inputs',28);
INSERT INTO "sqlite_sequence" VALUES('replies',17);
COMMIT;

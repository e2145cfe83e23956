//! Tile art, painted in code so the binary carries it and works from any directory: the
//! window's tiles, and the image `delve export` draws of a level.
//!
//! One horizontal strip of 32×32 tiles, indexed by [`TileArt`]. Each tile reads at a glance:
//! flagstones, brick, planks, black rock, pebbles, water darkening with depth, a chasm's drop,
//! a squeeze's slit, and doors open, closed, locked and secret.

use crate::grid::{DoorState, Terrain, WallMaterial, WaterDepth};
use crate::level::schema::Lock;

/// Pixels per tile side.
pub const TILE_PX: u32 = 32;

/// The tiles of the strip, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum TileArt {
    Floor,
    WallStone,
    WallWood,
    Rock,
    Rubble,
    WaterKnee,
    WaterWaist,
    WaterChest,
    WaterDeep,
    Chasm,
    Squeeze,
    Ledge,
    DoorClosed,
    DoorOpen,
    DoorLocked,
    DoorSecret,
}

impl TileArt {
    pub const COUNT: u32 = 16;

    /// The tile for a square, given the door on it if any.
    pub fn for_square(t: Terrain, door: Option<(&DoorState, &Lock, bool)>) -> TileArt {
        match t {
            Terrain::Floor => TileArt::Floor,
            Terrain::Rubble => TileArt::Rubble,
            Terrain::Water(WaterDepth::Knee) => TileArt::WaterKnee,
            Terrain::Water(WaterDepth::Waist) => TileArt::WaterWaist,
            Terrain::Water(WaterDepth::Chest) => TileArt::WaterChest,
            Terrain::Water(WaterDepth::Deep) => TileArt::WaterDeep,
            Terrain::Chasm { .. } => TileArt::Chasm,
            Terrain::Squeeze => TileArt::Squeeze,
            Terrain::Ledge { .. } => TileArt::Ledge,
            Terrain::Wall(WallMaterial::Stone) => TileArt::WallStone,
            Terrain::Wall(WallMaterial::Wood) => TileArt::WallWood,
            Terrain::Rock => TileArt::Rock,
            Terrain::Door => match door {
                Some((_, _, true)) => TileArt::DoorSecret,
                Some((DoorState::Open, _, _)) => TileArt::DoorOpen,
                Some((_, Lock::Locked { .. } | Lock::Jammed, _)) => TileArt::DoorLocked,
                _ => TileArt::DoorClosed,
            },
        }
    }
}

type Rgb = [u8; 3];

struct Canvas {
    px: Vec<u8>,
    width: u32,
}

impl Canvas {
    fn set(&mut self, tile: u32, x: u32, y: u32, c: Rgb) {
        if x >= TILE_PX || y >= TILE_PX {
            return;
        }
        let i = ((y * self.width + tile * TILE_PX + x) * 4) as usize;
        self.px[i..i + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
    }

    fn fill(&mut self, tile: u32, f: impl Fn(u32, u32) -> Rgb) {
        for y in 0..TILE_PX {
            for x in 0..TILE_PX {
                self.set(tile, x, y, f(x, y));
            }
        }
    }

    fn rect(&mut self, tile: u32, x0: u32, y0: u32, x1: u32, y1: u32, c: Rgb) {
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.set(tile, x, y, c);
            }
        }
    }
}

/// A small deterministic hash for texture noise.
fn noise(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(374_761_393)
        ^ y.wrapping_mul(668_265_263)
        ^ salt.wrapping_mul(2_246_822_519);
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    h ^ (h >> 16)
}

fn shade(c: Rgb, d: i32) -> Rgb {
    c.map(|v| (v as i32 + d).clamp(0, 255) as u8)
}

fn floor_px(x: u32, y: u32) -> Rgb {
    let base = [78, 72, 66];
    // Flagstones: 16×16 slabs with dark grout, a little grain.
    let grout = x.is_multiple_of(16) || y.is_multiple_of(16);
    if grout {
        return [44, 40, 37];
    }
    shade(
        base,
        (noise(x, y, 1) % 9) as i32 - 4
            + if (x / 16 + y / 16).is_multiple_of(2) {
                3
            } else {
                -3
            },
    )
}

fn stone_px(x: u32, y: u32) -> Rgb {
    let row = y / 8;
    let offset = if row.is_multiple_of(2) { 0 } else { 8 };
    let mortar = y.is_multiple_of(8) || (x + offset).is_multiple_of(16);
    if mortar {
        [58, 56, 54]
    } else {
        shade(
            [140, 134, 124],
            (noise(x, y, 2) % 13) as i32 - 6 - (y % 8 == 7) as i32 * 18,
        )
    }
}

fn water_px(x: u32, y: u32, base: Rgb) -> Rgb {
    let wave = (x + 2 * (y / 6)) % 12 < 2 && y % 6 == 3;
    if wave {
        shade(base, 45)
    } else {
        shade(base, (noise(x, y, 3) % 7) as i32 - 3)
    }
}

fn door_slab(c: &mut Canvas, t: u32) {
    c.fill(t, floor_px);
    c.rect(t, 4, 3, 27, 28, [120, 74, 34]);
    for x in (4..=27).step_by(6) {
        c.rect(t, x, 3, x, 28, [92, 56, 26]);
    }
    // Iron bands.
    c.rect(t, 4, 8, 27, 9, [60, 60, 66]);
    c.rect(t, 4, 22, 27, 23, [60, 60, 66]);
    c.rect(t, 22, 15, 24, 17, [200, 190, 120]);
    // Outline.
    c.rect(t, 3, 2, 28, 2, [30, 20, 12]);
    c.rect(t, 3, 29, 28, 29, [30, 20, 12]);
    c.rect(t, 3, 2, 3, 29, [30, 20, 12]);
    c.rect(t, 28, 2, 28, 29, [30, 20, 12]);
}

/// Paints the whole strip.
/// The strip of tiles as RGBA pixels, [`TileArt::COUNT`] tiles wide and one tile high: the
/// window's tilemap texture, and what `delve export` draws a map's image with.
pub fn tileset_rgba() -> (u32, Vec<u8>) {
    let width = TILE_PX * TileArt::COUNT;
    let mut c = Canvas {
        px: vec![0; (width * TILE_PX * 4) as usize],
        width,
    };
    c.fill(TileArt::Floor as u32, floor_px);
    c.fill(TileArt::WallStone as u32, stone_px);
    c.fill(TileArt::WallWood as u32, |x, y| {
        if x % 8 == 0 {
            [70, 44, 22]
        } else {
            shade(
                [150, 100, 56],
                (noise(x / 2, y, 4) % 15) as i32 - 7 - ((x % 8 == 7) as i32) * 20,
            )
        }
    });
    c.fill(TileArt::Rock as u32, |x, y| {
        if noise(x, y, 5).is_multiple_of(23) {
            [40, 37, 36]
        } else {
            [18, 17, 17]
        }
    });
    c.fill(TileArt::Rubble as u32, floor_px);
    for (cx, cy, r) in [
        (7, 8, 4),
        (20, 6, 3),
        (14, 17, 5),
        (25, 21, 4),
        (6, 25, 3),
        (18, 27, 2),
    ] {
        for y in cy - r..=cy + r {
            for x in cx - r..=cx + r {
                let (dx, dy) = (x as i32 - cx as i32, y as i32 - cy as i32);
                if dx * dx + dy * dy <= (r * r) as i32 {
                    let lit = if dx + dy < 0 { 30 } else { 0 };
                    c.set(TileArt::Rubble as u32, x, y, shade([112, 106, 98], lit));
                }
            }
        }
    }
    for (art, base) in [
        (TileArt::WaterKnee, [84, 138, 160]),
        (TileArt::WaterWaist, [56, 108, 152]),
        (TileArt::WaterChest, [38, 78, 138]),
        (TileArt::WaterDeep, [20, 44, 104]),
    ] {
        c.fill(art as u32, |x, y| water_px(x, y, base));
    }
    c.fill(TileArt::Chasm as u32, |x, y| {
        let edge = x.min(y).min(TILE_PX - 1 - x).min(TILE_PX - 1 - y);
        match edge {
            0..=1 => [78, 72, 66],
            2..=4 => [
                40 - edge as u8 * 6,
                34 - edge as u8 * 5,
                30 - edge as u8 * 5,
            ],
            _ => [4, 3, 6],
        }
    });
    // A ledge: a pale strip of stone across the dark of the drop.
    c.fill(TileArt::Ledge as u32, |x, y| {
        if (13..=18).contains(&y) {
            if noise(x, y, 4).is_multiple_of(7) {
                [120, 112, 100]
            } else {
                [150, 140, 124]
            }
        } else if (11..=20).contains(&y) {
            [46, 40, 36]
        } else {
            [4, 3, 6]
        }
    });
    c.fill(TileArt::Squeeze as u32, |x, y| {
        let centre = 16 + ((y as i32 - 16) / 5);
        if (x as i32 - centre).abs() <= 3 {
            floor_px(x, y)
        } else if noise(x, y, 6).is_multiple_of(19) {
            [40, 37, 36]
        } else {
            [24, 22, 21]
        }
    });
    door_slab(&mut c, TileArt::DoorClosed as u32);
    // Open: the slab swung against the left jamb.
    c.fill(TileArt::DoorOpen as u32, floor_px);
    c.rect(TileArt::DoorOpen as u32, 1, 3, 6, 28, [120, 74, 34]);
    c.rect(TileArt::DoorOpen as u32, 1, 3, 1, 28, [30, 20, 12]);
    c.rect(TileArt::DoorOpen as u32, 6, 3, 6, 28, [30, 20, 12]);
    door_slab(&mut c, TileArt::DoorLocked as u32);
    // A brass padlock.
    let t = TileArt::DoorLocked as u32;
    c.rect(t, 12, 13, 19, 22, [230, 190, 60]);
    c.rect(t, 13, 9, 14, 13, [230, 190, 60]);
    c.rect(t, 17, 9, 18, 13, [230, 190, 60]);
    c.rect(t, 13, 8, 18, 9, [230, 190, 60]);
    c.rect(t, 15, 16, 16, 19, [40, 30, 10]);
    // Secret: the wall's bricks with a bold dashed outline only the Judge sees (3 pixels
    // thick, so that it still shows at 16 pixels a square; a 1-pixel dotted line vanished) and
    // a keyhole.
    let t = TileArt::DoorSecret as u32;
    c.fill(t, stone_px);
    let magenta = [240, 90, 220];
    for i in (2..28).step_by(7) {
        c.rect(t, i, 2, i + 4, 5, magenta);
        c.rect(t, i, 27, i + 4, 30, magenta);
        c.rect(t, 2, i, 5, i + 4, magenta);
        c.rect(t, 27, i, 30, i + 4, magenta);
    }
    c.rect(t, 13, 11, 19, 17, magenta);
    c.rect(t, 15, 17, 17, 22, magenta);
    (width, c.px)
}

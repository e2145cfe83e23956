//! The window's images: the tile strip (painted by [`delve_ground::tile_art`]) as a texture, and the
//! tokens' discs.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

pub use delve_ground::tile_art::{TILE_PX, TileArt};

/// The tile strip as a texture.
pub fn tileset_image() -> Image {
    let (width, px) = delve_ground::tile_art::tileset_rgba();
    Image::new(
        Extent3d {
            width,
            height: TILE_PX,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        px,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

/// A white disc with a dark rim, tinted per faction for creature tokens.
pub fn token_image(size: u32) -> Image {
    disc_image(size, |d, r| {
        if d > r {
            None
        } else if d > r - 2.5 {
            Some([20, 20, 20, 255])
        } else {
            let v = (255.0 - 60.0 * (d / r)) as u8;
            Some([v, v, v, 255])
        }
    })
}

/// A ring, for the selected creature.
pub fn ring_image(size: u32) -> Image {
    disc_image(size, |d, r| {
        (d <= r && d > r - 3.0).then_some([255, 230, 80, 255])
    })
}

fn disc_image(size: u32, px: impl Fn(f32, f32) -> Option<[u8; 4]>) -> Image {
    let mut data = vec![0u8; (size * size * 4) as usize];
    let r = size as f32 / 2.0 - 0.5;
    for y in 0..size {
        for x in 0..size {
            let d = ((x as f32 - r).powi(2) + (y as f32 - r).powi(2)).sqrt();
            if let Some(c) = px(d, r) {
                let i = ((y * size + x) * 4) as usize;
                data[i..i + 4].copy_from_slice(&c);
            }
        }
    }
    Image::new(
        Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

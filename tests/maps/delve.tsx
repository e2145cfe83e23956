<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="delve" tilewidth="32" tileheight="32" tilecount="5" columns="5">
 <image source="delve.png" width="160" height="32"/>
 <tile id="0"><properties><property name="terrain" value="Floor"/></properties></tile>
 <tile id="1"><properties><property name="terrain" value="Wall(Stone)"/></properties></tile>
 <tile id="2"><properties><property name="terrain" value="Water(Deep)"/></properties></tile>
 <tile id="3"><properties><property name="terrain" value="Door"/></properties></tile>
 <tile id="4"><properties><property name="terrain" value="Chasm(depth_feet: 30)"/></properties></tile>
</tileset>

/**
 * A built-in gazetteer for the address search, so finding a plant's city needs no network: the
 * world's capitals and the main cities of the large solar markets (China, Europe, India, Brazil,
 * Vietnam, Turkey, Australia, the United States). Coordinates are city centres; the zone is the IANA
 * name in current spelling (matched to the server's list by `matchTimeZone`). `alias` holds local
 * spellings a user may type (Chinese names for Chinese cities).
 */
export interface Place {
  name: string;
  country: string;
  lat: number;
  lng: number;
  timezone: string;
  alias?: readonly string[];
}

type Row = readonly [name: string, lat: number, lng: number, timezone: string, alias?: string];

/** Rows grouped by country keep the table short; `places()` flattens them once. */
const BY_COUNTRY: Readonly<Record<string, readonly Row[]>> = {
  // Europe
  Germany: [
    ['Berlin', 52.52, 13.405, 'Europe/Berlin'],
    ['Hamburg', 53.5511, 9.9937, 'Europe/Berlin'],
    ['Munich', 48.1351, 11.582, 'Europe/Berlin', 'München'],
    ['Cologne', 50.9375, 6.9603, 'Europe/Berlin', 'Köln'],
    ['Frankfurt', 50.1109, 8.6821, 'Europe/Berlin'],
    ['Stuttgart', 48.7758, 9.1829, 'Europe/Berlin'],
    ['Düsseldorf', 51.2277, 6.7735, 'Europe/Berlin'],
    ['Leipzig', 51.3397, 12.3731, 'Europe/Berlin'],
    ['Dresden', 51.0504, 13.7373, 'Europe/Berlin'],
    ['Hanover', 52.3759, 9.732, 'Europe/Berlin', 'Hannover'],
    ['Nuremberg', 49.4521, 11.0767, 'Europe/Berlin', 'Nürnberg'],
    ['Freiburg', 47.999, 7.8421, 'Europe/Berlin'],
  ],
  France: [
    ['Paris', 48.8566, 2.3522, 'Europe/Paris'],
    ['Lyon', 45.764, 4.8357, 'Europe/Paris'],
    ['Marseille', 43.2965, 5.3698, 'Europe/Paris'],
    ['Toulouse', 43.6047, 1.4442, 'Europe/Paris'],
    ['Bordeaux', 44.8378, -0.5792, 'Europe/Paris'],
    ['Nice', 43.7102, 7.262, 'Europe/Paris'],
    ['Montpellier', 43.6108, 3.8767, 'Europe/Paris'],
  ],
  'United Kingdom': [
    ['London', 51.5074, -0.1278, 'Europe/London'],
    ['Manchester', 53.4808, -2.2426, 'Europe/London'],
    ['Birmingham', 52.4862, -1.8904, 'Europe/London'],
    ['Edinburgh', 55.9533, -3.1883, 'Europe/London'],
    ['Bristol', 51.4545, -2.5879, 'Europe/London'],
  ],
  Spain: [
    ['Madrid', 40.4168, -3.7038, 'Europe/Madrid'],
    ['Barcelona', 41.3874, 2.1686, 'Europe/Madrid'],
    ['Valencia', 39.4699, -0.3763, 'Europe/Madrid'],
    ['Seville', 37.3891, -5.9845, 'Europe/Madrid', 'Sevilla'],
    ['Málaga', 36.7213, -4.4214, 'Europe/Madrid'],
    ['Zaragoza', 41.6488, -0.8891, 'Europe/Madrid'],
    ['Murcia', 37.9922, -1.1307, 'Europe/Madrid'],
    ['Badajoz', 38.8794, -6.9707, 'Europe/Madrid'],
    ['Almería', 36.834, -2.4637, 'Europe/Madrid'],
  ],
  Italy: [
    ['Rome', 41.9028, 12.4964, 'Europe/Rome', 'Roma'],
    ['Milan', 45.4642, 9.19, 'Europe/Rome', 'Milano'],
    ['Naples', 40.8518, 14.2681, 'Europe/Rome', 'Napoli'],
    ['Turin', 45.0703, 7.6869, 'Europe/Rome', 'Torino'],
    ['Palermo', 38.1157, 13.3615, 'Europe/Rome'],
    ['Bari', 41.1171, 16.8719, 'Europe/Rome'],
    ['Bologna', 44.4949, 11.3426, 'Europe/Rome'],
    ['Catania', 37.5079, 15.083, 'Europe/Rome'],
  ],
  Portugal: [
    ['Lisbon', 38.7223, -9.1393, 'Europe/Lisbon', 'Lisboa'],
    ['Porto', 41.1579, -8.6291, 'Europe/Lisbon'],
    ['Faro', 37.0194, -7.9322, 'Europe/Lisbon'],
  ],
  Netherlands: [
    ['Amsterdam', 52.3676, 4.9041, 'Europe/Amsterdam'],
    ['Rotterdam', 51.9244, 4.4777, 'Europe/Amsterdam'],
    ['Utrecht', 52.0907, 5.1214, 'Europe/Amsterdam'],
    ['Eindhoven', 51.4416, 5.4697, 'Europe/Amsterdam'],
  ],
  Belgium: [
    ['Brussels', 50.8503, 4.3517, 'Europe/Brussels', 'Bruxelles'],
    ['Antwerp', 51.2194, 4.4025, 'Europe/Brussels', 'Antwerpen'],
  ],
  Luxembourg: [['Luxembourg', 49.6116, 6.1319, 'Europe/Luxembourg']],
  Austria: [
    ['Vienna', 48.2082, 16.3738, 'Europe/Vienna', 'Wien'],
    ['Graz', 47.0707, 15.4395, 'Europe/Vienna'],
  ],
  Switzerland: [
    ['Bern', 46.948, 7.4474, 'Europe/Zurich'],
    ['Zurich', 47.3769, 8.5417, 'Europe/Zurich', 'Zürich'],
    ['Geneva', 46.2044, 6.1432, 'Europe/Zurich', 'Genève'],
  ],
  Czechia: [
    ['Prague', 50.0755, 14.4378, 'Europe/Prague', 'Praha'],
    ['Brno', 49.1951, 16.6068, 'Europe/Prague'],
  ],
  Poland: [
    ['Warsaw', 52.2297, 21.0122, 'Europe/Warsaw', 'Warszawa'],
    ['Kraków', 50.0647, 19.945, 'Europe/Warsaw', 'Cracow'],
    ['Wrocław', 51.1079, 17.0385, 'Europe/Warsaw'],
    ['Poznań', 52.4064, 16.9252, 'Europe/Warsaw'],
    ['Gdańsk', 54.352, 18.6466, 'Europe/Warsaw'],
    ['Łódź', 51.7592, 19.456, 'Europe/Warsaw'],
  ],
  Slovakia: [['Bratislava', 48.1486, 17.1077, 'Europe/Bratislava']],
  Hungary: [
    ['Budapest', 47.4979, 19.0402, 'Europe/Budapest'],
    ['Debrecen', 47.5316, 21.6273, 'Europe/Budapest'],
  ],
  Slovenia: [['Ljubljana', 46.0569, 14.5058, 'Europe/Ljubljana']],
  Croatia: [['Zagreb', 45.815, 15.9819, 'Europe/Zagreb']],
  Serbia: [['Belgrade', 44.7866, 20.4489, 'Europe/Belgrade', 'Beograd']],
  'Bosnia and Herzegovina': [['Sarajevo', 43.8563, 18.4131, 'Europe/Sarajevo']],
  Montenegro: [['Podgorica', 42.4304, 19.2594, 'Europe/Podgorica']],
  'North Macedonia': [['Skopje', 41.9981, 21.4254, 'Europe/Skopje']],
  Albania: [['Tirana', 41.3275, 19.8187, 'Europe/Tirane']],
  Greece: [
    ['Athens', 37.9838, 23.7275, 'Europe/Athens', 'Αθήνα'],
    ['Thessaloniki', 40.6401, 22.9444, 'Europe/Athens', 'Θεσσαλονίκη'],
  ],
  Bulgaria: [['Sofia', 42.6977, 23.3219, 'Europe/Sofia']],
  Romania: [
    ['Bucharest', 44.4268, 26.1025, 'Europe/Bucharest', 'București'],
    ['Cluj-Napoca', 46.7712, 23.6236, 'Europe/Bucharest'],
  ],
  Moldova: [['Chișinău', 47.0105, 28.8638, 'Europe/Chisinau', 'Chisinau']],
  Ukraine: [
    ['Kyiv', 50.4501, 30.5234, 'Europe/Kyiv', 'Kiev'],
    ['Odesa', 46.4825, 30.7233, 'Europe/Kyiv', 'Odessa'],
    ['Kharkiv', 49.9935, 36.2304, 'Europe/Kyiv'],
  ],
  Belarus: [['Minsk', 53.9006, 27.559, 'Europe/Minsk']],
  Lithuania: [['Vilnius', 54.6872, 25.2797, 'Europe/Vilnius']],
  Latvia: [['Riga', 56.9496, 24.1052, 'Europe/Riga']],
  Estonia: [['Tallinn', 59.437, 24.7536, 'Europe/Tallinn']],
  Finland: [['Helsinki', 60.1699, 24.9384, 'Europe/Helsinki']],
  Sweden: [
    ['Stockholm', 59.3293, 18.0686, 'Europe/Stockholm'],
    ['Gothenburg', 57.7089, 11.9746, 'Europe/Stockholm', 'Göteborg'],
  ],
  Norway: [['Oslo', 59.9139, 10.7522, 'Europe/Oslo']],
  Denmark: [
    ['Copenhagen', 55.6761, 12.5683, 'Europe/Copenhagen', 'København'],
    ['Aarhus', 56.1629, 10.2039, 'Europe/Copenhagen'],
  ],
  Iceland: [['Reykjavík', 64.1466, -21.9426, 'Atlantic/Reykjavik', 'Reykjavik']],
  Ireland: [['Dublin', 53.3498, -6.2603, 'Europe/Dublin']],
  Malta: [['Valletta', 35.8989, 14.5146, 'Europe/Malta']],
  Cyprus: [['Nicosia', 35.1856, 33.3823, 'Asia/Nicosia']],
  Russia: [
    ['Moscow', 55.7558, 37.6173, 'Europe/Moscow', 'Москва'],
    ['Saint Petersburg', 59.9311, 30.3609, 'Europe/Moscow'],
  ],
  Georgia: [['Tbilisi', 41.7151, 44.8271, 'Asia/Tbilisi']],
  Armenia: [['Yerevan', 40.1792, 44.4991, 'Asia/Yerevan']],
  Azerbaijan: [['Baku', 40.4093, 49.8671, 'Asia/Baku']],
  Turkey: [
    ['Ankara', 39.9334, 32.8597, 'Europe/Istanbul'],
    ['Istanbul', 41.0082, 28.9784, 'Europe/Istanbul', 'İstanbul'],
    ['Izmir', 38.4237, 27.1428, 'Europe/Istanbul', 'İzmir'],
    ['Antalya', 36.8969, 30.7133, 'Europe/Istanbul'],
    ['Konya', 37.8746, 32.4932, 'Europe/Istanbul'],
    ['Bursa', 40.1885, 29.061, 'Europe/Istanbul'],
    ['Adana', 37.0, 35.3213, 'Europe/Istanbul'],
    ['Gaziantep', 37.0662, 37.3833, 'Europe/Istanbul'],
    ['Kayseri', 38.7312, 35.4787, 'Europe/Istanbul'],
    ['Mersin', 36.8121, 34.6415, 'Europe/Istanbul'],
  ],
  // Asia
  China: [
    ['Beijing', 39.9042, 116.4074, 'Asia/Shanghai', '北京'],
    ['Shanghai', 31.2304, 121.4737, 'Asia/Shanghai', '上海'],
    ['Guangzhou', 23.1291, 113.2644, 'Asia/Shanghai', '广州'],
    ['Shenzhen', 22.5431, 114.0579, 'Asia/Shanghai', '深圳'],
    ['Tianjin', 39.3434, 117.3616, 'Asia/Shanghai', '天津'],
    ['Chongqing', 29.4316, 106.9123, 'Asia/Shanghai', '重庆'],
    ['Chengdu', 30.5728, 104.0668, 'Asia/Shanghai', '成都'],
    ['Wuhan', 30.5928, 114.3055, 'Asia/Shanghai', '武汉'],
    ['Xi’an', 34.3416, 108.9398, 'Asia/Shanghai', '西安'],
    ['Hangzhou', 30.2741, 120.1551, 'Asia/Shanghai', '杭州'],
    ['Nanjing', 32.0603, 118.7969, 'Asia/Shanghai', '南京'],
    ['Suzhou', 31.2989, 120.5853, 'Asia/Shanghai', '苏州'],
    ['Wuxi', 31.4912, 120.3119, 'Asia/Shanghai', '无锡'],
    ['Ningbo', 29.8683, 121.544, 'Asia/Shanghai', '宁波'],
    ['Hefei', 31.8206, 117.2272, 'Asia/Shanghai', '合肥'],
    ['Jinan', 36.6512, 117.1201, 'Asia/Shanghai', '济南'],
    ['Qingdao', 36.0671, 120.3826, 'Asia/Shanghai', '青岛'],
    ['Zhengzhou', 34.7466, 113.6254, 'Asia/Shanghai', '郑州'],
    ['Changsha', 28.2282, 112.9388, 'Asia/Shanghai', '长沙'],
    ['Nanchang', 28.682, 115.8579, 'Asia/Shanghai', '南昌'],
    ['Fuzhou', 26.0745, 119.2965, 'Asia/Shanghai', '福州'],
    ['Xiamen', 24.4798, 118.0894, 'Asia/Shanghai', '厦门'],
    ['Dongguan', 23.0207, 113.7518, 'Asia/Shanghai', '东莞'],
    ['Foshan', 23.0215, 113.1214, 'Asia/Shanghai', '佛山'],
    ['Kunming', 25.0389, 102.7183, 'Asia/Shanghai', '昆明'],
    ['Guiyang', 26.647, 106.6302, 'Asia/Shanghai', '贵阳'],
    ['Nanning', 22.817, 108.3665, 'Asia/Shanghai', '南宁'],
    ['Haikou', 20.044, 110.1999, 'Asia/Shanghai', '海口'],
    ['Shijiazhuang', 38.0428, 114.5149, 'Asia/Shanghai', '石家庄'],
    ['Taiyuan', 37.8706, 112.5489, 'Asia/Shanghai', '太原'],
    ['Datong', 40.0768, 113.3001, 'Asia/Shanghai', '大同'],
    ['Hohhot', 40.8424, 111.749, 'Asia/Shanghai', '呼和浩特'],
    ['Ordos', 39.6086, 109.781, 'Asia/Shanghai', '鄂尔多斯'],
    ['Shenyang', 41.8057, 123.4315, 'Asia/Shanghai', '沈阳'],
    ['Changchun', 43.817, 125.3235, 'Asia/Shanghai', '长春'],
    ['Harbin', 45.8038, 126.535, 'Asia/Shanghai', '哈尔滨'],
    ['Lanzhou', 36.0611, 103.8343, 'Asia/Shanghai', '兰州'],
    ['Dunhuang', 40.1421, 94.662, 'Asia/Shanghai', '敦煌'],
    ['Xining', 36.6171, 101.7782, 'Asia/Shanghai', '西宁'],
    ['Golmud', 36.4029, 94.9033, 'Asia/Shanghai', '格尔木'],
    ['Yinchuan', 38.4872, 106.2309, 'Asia/Shanghai', '银川'],
    ['Urumqi', 43.8256, 87.6168, 'Asia/Shanghai', '乌鲁木齐'],
    ['Lhasa', 29.652, 91.1721, 'Asia/Shanghai', '拉萨'],
    ['Hong Kong', 22.3193, 114.1694, 'Asia/Hong_Kong', '香港'],
  ],
  Japan: [
    ['Tokyo', 35.6762, 139.6503, 'Asia/Tokyo', '東京'],
    ['Osaka', 34.6937, 135.5023, 'Asia/Tokyo', '大阪'],
  ],
  'South Korea': [
    ['Seoul', 37.5665, 126.978, 'Asia/Seoul', '서울'],
    ['Busan', 35.1796, 129.0756, 'Asia/Seoul', '부산'],
  ],
  Mongolia: [['Ulaanbaatar', 47.8864, 106.9057, 'Asia/Ulaanbaatar']],
  Vietnam: [
    ['Hanoi', 21.0278, 105.8342, 'Asia/Ho_Chi_Minh', 'Hà Nội'],
    ['Ho Chi Minh City', 10.8231, 106.6297, 'Asia/Ho_Chi_Minh', 'Saigon'],
    ['Da Nang', 16.0544, 108.2022, 'Asia/Ho_Chi_Minh', 'Đà Nẵng'],
    ['Hai Phong', 20.8449, 106.6881, 'Asia/Ho_Chi_Minh', 'Hải Phòng'],
    ['Can Tho', 10.0452, 105.7469, 'Asia/Ho_Chi_Minh', 'Cần Thơ'],
    ['Nha Trang', 12.2388, 109.1967, 'Asia/Ho_Chi_Minh'],
    ['Phan Thiet', 10.9289, 108.1021, 'Asia/Ho_Chi_Minh', 'Phan Thiết'],
    ['Phan Rang', 11.5643, 108.9886, 'Asia/Ho_Chi_Minh', 'Ninh Thuận'],
    ['Bien Hoa', 10.9574, 106.8429, 'Asia/Ho_Chi_Minh', 'Biên Hòa'],
    ['Hue', 16.4637, 107.5909, 'Asia/Ho_Chi_Minh', 'Huế'],
  ],
  Thailand: [
    ['Bangkok', 13.7563, 100.5018, 'Asia/Bangkok'],
    ['Chiang Mai', 18.7883, 98.9853, 'Asia/Bangkok'],
  ],
  Laos: [['Vientiane', 17.9757, 102.6331, 'Asia/Vientiane']],
  Cambodia: [['Phnom Penh', 11.5564, 104.9282, 'Asia/Phnom_Penh']],
  Myanmar: [
    ['Naypyidaw', 19.7633, 96.0785, 'Asia/Yangon'],
    ['Yangon', 16.8409, 96.1735, 'Asia/Yangon', 'Rangoon'],
  ],
  Malaysia: [
    ['Kuala Lumpur', 3.139, 101.6869, 'Asia/Kuala_Lumpur'],
    ['George Town', 5.4141, 100.3288, 'Asia/Kuala_Lumpur', 'Penang'],
  ],
  Singapore: [['Singapore', 1.3521, 103.8198, 'Asia/Singapore']],
  Indonesia: [
    ['Jakarta', -6.2088, 106.8456, 'Asia/Jakarta'],
    ['Surabaya', -7.2575, 112.7521, 'Asia/Jakarta'],
  ],
  Philippines: [
    ['Manila', 14.5995, 120.9842, 'Asia/Manila'],
    ['Cebu City', 10.3157, 123.8854, 'Asia/Manila'],
  ],
  Brunei: [['Bandar Seri Begawan', 4.9031, 114.9398, 'Asia/Brunei']],
  'Timor-Leste': [['Dili', -8.5569, 125.5603, 'Asia/Dili']],
  India: [
    ['New Delhi', 28.6139, 77.209, 'Asia/Kolkata', 'Delhi'],
    ['Mumbai', 19.076, 72.8777, 'Asia/Kolkata', 'Bombay'],
    ['Bengaluru', 12.9716, 77.5946, 'Asia/Kolkata', 'Bangalore'],
    ['Chennai', 13.0827, 80.2707, 'Asia/Kolkata', 'Madras'],
    ['Kolkata', 22.5726, 88.3639, 'Asia/Kolkata', 'Calcutta'],
    ['Hyderabad', 17.385, 78.4867, 'Asia/Kolkata'],
    ['Ahmedabad', 23.0225, 72.5714, 'Asia/Kolkata'],
    ['Gandhinagar', 23.2156, 72.6369, 'Asia/Kolkata'],
    ['Surat', 21.1702, 72.8311, 'Asia/Kolkata'],
    ['Pune', 18.5204, 73.8567, 'Asia/Kolkata'],
    ['Jaipur', 26.9124, 75.7873, 'Asia/Kolkata'],
    ['Jodhpur', 26.2389, 73.0243, 'Asia/Kolkata'],
    ['Bhadla', 27.5399, 71.9149, 'Asia/Kolkata'],
    ['Lucknow', 26.8467, 80.9462, 'Asia/Kolkata'],
    ['Bhopal', 23.2599, 77.4126, 'Asia/Kolkata'],
    ['Nagpur', 21.1458, 79.0882, 'Asia/Kolkata'],
    ['Chandigarh', 30.7333, 76.7794, 'Asia/Kolkata'],
    ['Kochi', 9.9312, 76.2673, 'Asia/Kolkata', 'Cochin'],
    ['Anantapur', 14.6819, 77.6006, 'Asia/Kolkata'],
  ],
  Pakistan: [
    ['Islamabad', 33.6844, 73.0479, 'Asia/Karachi'],
    ['Karachi', 24.8607, 67.0011, 'Asia/Karachi'],
    ['Lahore', 31.5204, 74.3587, 'Asia/Karachi'],
  ],
  Bangladesh: [['Dhaka', 23.8103, 90.4125, 'Asia/Dhaka']],
  Nepal: [['Kathmandu', 27.7172, 85.324, 'Asia/Kathmandu']],
  Bhutan: [['Thimphu', 27.4728, 89.639, 'Asia/Thimphu']],
  'Sri Lanka': [['Colombo', 6.9271, 79.8612, 'Asia/Colombo']],
  Maldives: [['Malé', 4.1755, 73.5093, 'Indian/Maldives', 'Male']],
  Afghanistan: [['Kabul', 34.5553, 69.2075, 'Asia/Kabul']],
  Uzbekistan: [['Tashkent', 41.2995, 69.2401, 'Asia/Tashkent']],
  Kazakhstan: [
    ['Astana', 51.1694, 71.4491, 'Asia/Almaty'],
    ['Almaty', 43.222, 76.8512, 'Asia/Almaty'],
  ],
  Kyrgyzstan: [['Bishkek', 42.8746, 74.5698, 'Asia/Bishkek']],
  Tajikistan: [['Dushanbe', 38.5598, 68.787, 'Asia/Dushanbe']],
  Turkmenistan: [['Ashgabat', 37.9601, 58.3261, 'Asia/Ashgabat']],
  Iran: [['Tehran', 35.6892, 51.389, 'Asia/Tehran']],
  Iraq: [['Baghdad', 33.3152, 44.3661, 'Asia/Baghdad']],
  'Saudi Arabia': [
    ['Riyadh', 24.7136, 46.6753, 'Asia/Riyadh'],
    ['Jeddah', 21.4858, 39.1925, 'Asia/Riyadh'],
  ],
  'United Arab Emirates': [
    ['Abu Dhabi', 24.4539, 54.3773, 'Asia/Dubai'],
    ['Dubai', 25.2048, 55.2708, 'Asia/Dubai'],
  ],
  Qatar: [['Doha', 25.2854, 51.531, 'Asia/Qatar']],
  Bahrain: [['Manama', 26.2285, 50.586, 'Asia/Bahrain']],
  Kuwait: [['Kuwait City', 29.3759, 47.9774, 'Asia/Kuwait']],
  Oman: [['Muscat', 23.588, 58.3829, 'Asia/Muscat']],
  Yemen: [['Sanaa', 15.3694, 44.191, 'Asia/Aden']],
  Jordan: [['Amman', 31.9454, 35.9284, 'Asia/Amman']],
  Lebanon: [['Beirut', 33.8938, 35.5018, 'Asia/Beirut']],
  Syria: [['Damascus', 33.5138, 36.2765, 'Asia/Damascus']],
  Israel: [['Tel Aviv', 32.0853, 34.7818, 'Asia/Jerusalem']],
  // Africa
  Egypt: [
    ['Cairo', 30.0444, 31.2357, 'Africa/Cairo'],
    ['Aswan', 24.0889, 32.8998, 'Africa/Cairo'],
  ],
  Libya: [['Tripoli', 32.8872, 13.1913, 'Africa/Tripoli']],
  Tunisia: [['Tunis', 36.8065, 10.1815, 'Africa/Tunis']],
  Algeria: [['Algiers', 36.7538, 3.0588, 'Africa/Algiers']],
  Morocco: [
    ['Rabat', 34.0209, -6.8416, 'Africa/Casablanca'],
    ['Casablanca', 33.5731, -7.5898, 'Africa/Casablanca'],
    ['Ouarzazate', 30.9335, -6.937, 'Africa/Casablanca'],
  ],
  Mauritania: [['Nouakchott', 18.0735, -15.9582, 'Africa/Nouakchott']],
  Senegal: [['Dakar', 14.7167, -17.4677, 'Africa/Dakar']],
  Mali: [['Bamako', 12.6392, -8.0029, 'Africa/Bamako']],
  Niger: [['Niamey', 13.5116, 2.1254, 'Africa/Niamey']],
  'Burkina Faso': [['Ouagadougou', 12.3714, -1.5197, 'Africa/Ouagadougou']],
  Nigeria: [
    ['Abuja', 9.0765, 7.3986, 'Africa/Lagos'],
    ['Lagos', 6.5244, 3.3792, 'Africa/Lagos'],
  ],
  Ghana: [['Accra', 5.6037, -0.187, 'Africa/Accra']],
  'Ivory Coast': [['Abidjan', 5.36, -4.0083, 'Africa/Abidjan']],
  Guinea: [['Conakry', 9.6412, -13.5784, 'Africa/Conakry']],
  'Sierra Leone': [['Freetown', 8.4657, -13.2317, 'Africa/Freetown']],
  Liberia: [['Monrovia', 6.3156, -10.8074, 'Africa/Monrovia']],
  Togo: [['Lomé', 6.1725, 1.2314, 'Africa/Lome', 'Lome']],
  Benin: [['Cotonou', 6.3654, 2.4183, 'Africa/Porto-Novo']],
  Cameroon: [['Yaoundé', 3.848, 11.5021, 'Africa/Douala', 'Yaounde']],
  Chad: [['N’Djamena', 12.1348, 15.0557, 'Africa/Ndjamena', 'Ndjamena']],
  Sudan: [['Khartoum', 15.5007, 32.5599, 'Africa/Khartoum']],
  Ethiopia: [['Addis Ababa', 9.03, 38.74, 'Africa/Addis_Ababa']],
  Kenya: [['Nairobi', -1.2921, 36.8219, 'Africa/Nairobi']],
  Uganda: [['Kampala', 0.3476, 32.5825, 'Africa/Kampala']],
  Rwanda: [['Kigali', -1.9441, 30.0619, 'Africa/Kigali']],
  Tanzania: [
    ['Dodoma', -6.163, 35.7516, 'Africa/Dar_es_Salaam'],
    ['Dar es Salaam', -6.7924, 39.2083, 'Africa/Dar_es_Salaam'],
  ],
  Somalia: [['Mogadishu', 2.0469, 45.3182, 'Africa/Mogadishu']],
  Djibouti: [['Djibouti', 11.5721, 43.1456, 'Africa/Djibouti']],
  'DR Congo': [['Kinshasa', -4.4419, 15.2663, 'Africa/Kinshasa']],
  'Republic of the Congo': [['Brazzaville', -4.2634, 15.2429, 'Africa/Brazzaville']],
  Gabon: [['Libreville', 0.4162, 9.4673, 'Africa/Libreville']],
  Angola: [['Luanda', -8.839, 13.2894, 'Africa/Luanda']],
  Zambia: [['Lusaka', -15.3875, 28.3228, 'Africa/Lusaka']],
  Zimbabwe: [['Harare', -17.8252, 31.0335, 'Africa/Harare']],
  Malawi: [['Lilongwe', -13.9626, 33.7741, 'Africa/Blantyre']],
  Mozambique: [['Maputo', -25.9692, 32.5732, 'Africa/Maputo']],
  Namibia: [['Windhoek', -22.5609, 17.0658, 'Africa/Windhoek']],
  Botswana: [['Gaborone', -24.6282, 25.9231, 'Africa/Gaborone']],
  'South Africa': [
    ['Pretoria', -25.7479, 28.2293, 'Africa/Johannesburg'],
    ['Johannesburg', -26.2041, 28.0473, 'Africa/Johannesburg'],
    ['Cape Town', -33.9249, 18.4241, 'Africa/Johannesburg'],
  ],
  Madagascar: [['Antananarivo', -18.8792, 47.5079, 'Indian/Antananarivo']],
  Mauritius: [['Port Louis', -20.1609, 57.5012, 'Indian/Mauritius']],
  // Americas
  'United States': [
    ['Washington', 38.9072, -77.0369, 'America/New_York'],
    ['New York', 40.7128, -74.006, 'America/New_York'],
    ['Boston', 42.3601, -71.0589, 'America/New_York'],
    ['Atlanta', 33.749, -84.388, 'America/New_York'],
    ['Miami', 25.7617, -80.1918, 'America/New_York'],
    ['Orlando', 28.5383, -81.3792, 'America/New_York'],
    ['Charlotte', 35.2271, -80.8431, 'America/New_York'],
    ['Raleigh', 35.7796, -78.6382, 'America/New_York'],
    ['Chicago', 41.8781, -87.6298, 'America/Chicago'],
    ['Dallas', 32.7767, -96.797, 'America/Chicago'],
    ['Houston', 29.7604, -95.3698, 'America/Chicago'],
    ['Austin', 30.2672, -97.7431, 'America/Chicago'],
    ['San Antonio', 29.4241, -98.4936, 'America/Chicago'],
    ['Denver', 39.7392, -104.9903, 'America/Denver'],
    ['Salt Lake City', 40.7608, -111.891, 'America/Denver'],
    ['Albuquerque', 35.0844, -106.6504, 'America/Denver'],
    ['Phoenix', 33.4484, -112.074, 'America/Phoenix'],
    ['Tucson', 32.2226, -110.9747, 'America/Phoenix'],
    ['Las Vegas', 36.1699, -115.1398, 'America/Los_Angeles'],
    ['Los Angeles', 34.0522, -118.2437, 'America/Los_Angeles'],
    ['San Diego', 32.7157, -117.1611, 'America/Los_Angeles'],
    ['San Francisco', 37.7749, -122.4194, 'America/Los_Angeles'],
    ['Sacramento', 38.5816, -121.4944, 'America/Los_Angeles'],
    ['Seattle', 47.6062, -122.3321, 'America/Los_Angeles'],
    ['Honolulu', 21.3069, -157.8583, 'Pacific/Honolulu'],
  ],
  Canada: [
    ['Ottawa', 45.4215, -75.6972, 'America/Toronto'],
    ['Toronto', 43.6532, -79.3832, 'America/Toronto'],
    ['Montreal', 45.5017, -73.5673, 'America/Toronto', 'Montréal'],
    ['Calgary', 51.0447, -114.0719, 'America/Edmonton'],
    ['Vancouver', 49.2827, -123.1207, 'America/Vancouver'],
  ],
  Mexico: [
    ['Mexico City', 19.4326, -99.1332, 'America/Mexico_City', 'Ciudad de México'],
    ['Monterrey', 25.6866, -100.3161, 'America/Monterrey'],
    ['Guadalajara', 20.6597, -103.3496, 'America/Mexico_City'],
    ['Hermosillo', 29.0729, -110.9559, 'America/Hermosillo'],
  ],
  Guatemala: [['Guatemala City', 14.6349, -90.5069, 'America/Guatemala']],
  'El Salvador': [['San Salvador', 13.6929, -89.2182, 'America/El_Salvador']],
  Honduras: [['Tegucigalpa', 14.0723, -87.1921, 'America/Tegucigalpa']],
  Nicaragua: [['Managua', 12.1149, -86.2362, 'America/Managua']],
  'Costa Rica': [['San José', 9.9281, -84.0907, 'America/Costa_Rica', 'San Jose']],
  Panama: [['Panama City', 8.9824, -79.5199, 'America/Panama']],
  Cuba: [['Havana', 23.1136, -82.3666, 'America/Havana', 'La Habana']],
  Jamaica: [['Kingston', 17.9712, -76.7936, 'America/Jamaica']],
  'Dominican Republic': [['Santo Domingo', 18.4861, -69.9312, 'America/Santo_Domingo']],
  Haiti: [['Port-au-Prince', 18.5944, -72.3074, 'America/Port-au-Prince']],
  'Puerto Rico': [['San Juan', 18.4655, -66.1057, 'America/Puerto_Rico']],
  Colombia: [['Bogotá', 4.711, -74.0721, 'America/Bogota', 'Bogota']],
  Venezuela: [['Caracas', 10.4806, -66.9036, 'America/Caracas']],
  Ecuador: [['Quito', -0.1807, -78.4678, 'America/Guayaquil']],
  Peru: [['Lima', -12.0464, -77.0428, 'America/Lima']],
  Bolivia: [['La Paz', -16.4897, -68.1193, 'America/La_Paz']],
  Chile: [
    ['Santiago', -33.4489, -70.6693, 'America/Santiago'],
    ['Antofagasta', -23.6509, -70.3975, 'America/Santiago'],
  ],
  Argentina: [['Buenos Aires', -34.6037, -58.3816, 'America/Argentina/Buenos_Aires']],
  Uruguay: [['Montevideo', -34.9011, -56.1645, 'America/Montevideo']],
  Paraguay: [['Asunción', -25.2637, -57.5759, 'America/Asuncion', 'Asuncion']],
  Guyana: [['Georgetown', 6.8013, -58.1551, 'America/Guyana']],
  Suriname: [['Paramaribo', 5.852, -55.2038, 'America/Paramaribo']],
  Brazil: [
    ['Brasília', -15.8267, -47.9218, 'America/Sao_Paulo', 'Brasilia'],
    ['São Paulo', -23.5505, -46.6333, 'America/Sao_Paulo', 'Sao Paulo'],
    ['Rio de Janeiro', -22.9068, -43.1729, 'America/Sao_Paulo'],
    ['Belo Horizonte', -19.9167, -43.9345, 'America/Sao_Paulo'],
    ['Campinas', -22.9099, -47.0626, 'America/Sao_Paulo'],
    ['Curitiba', -25.4284, -49.2733, 'America/Sao_Paulo'],
    ['Porto Alegre', -30.0346, -51.2177, 'America/Sao_Paulo'],
    ['Goiânia', -16.6869, -49.2648, 'America/Sao_Paulo', 'Goiania'],
    ['Salvador', -12.9777, -38.5016, 'America/Bahia'],
    ['Fortaleza', -3.7319, -38.5267, 'America/Fortaleza'],
    ['Natal', -5.7945, -35.211, 'America/Fortaleza'],
    ['Teresina', -5.0892, -42.8019, 'America/Fortaleza'],
    ['Recife', -8.0476, -34.877, 'America/Recife'],
    ['Petrolina', -9.3891, -40.5027, 'America/Recife'],
    ['Cuiabá', -15.601, -56.0974, 'America/Cuiaba', 'Cuiaba'],
    ['Manaus', -3.119, -60.0217, 'America/Manaus'],
    ['Belém', -1.4558, -48.4902, 'America/Belem', 'Belem'],
  ],
  // Oceania
  Australia: [
    ['Canberra', -35.2809, 149.13, 'Australia/Sydney'],
    ['Sydney', -33.8688, 151.2093, 'Australia/Sydney'],
    ['Newcastle', -32.9283, 151.7817, 'Australia/Sydney'],
    ['Melbourne', -37.8136, 144.9631, 'Australia/Melbourne'],
    ['Brisbane', -27.4698, 153.0251, 'Australia/Brisbane'],
    ['Townsville', -19.259, 146.8169, 'Australia/Brisbane'],
    ['Perth', -31.9505, 115.8605, 'Australia/Perth'],
    ['Adelaide', -34.9285, 138.6007, 'Australia/Adelaide'],
    ['Darwin', -12.4634, 130.8456, 'Australia/Darwin'],
    ['Alice Springs', -23.698, 133.8807, 'Australia/Darwin'],
    ['Hobart', -42.8821, 147.3272, 'Australia/Hobart'],
  ],
  'New Zealand': [
    ['Wellington', -41.2865, 174.7762, 'Pacific/Auckland'],
    ['Auckland', -36.8485, 174.7633, 'Pacific/Auckland'],
  ],
  'Papua New Guinea': [['Port Moresby', -9.4438, 147.1803, 'Pacific/Port_Moresby']],
  Fiji: [['Suva', -18.1248, 178.4501, 'Pacific/Fiji']],
};

export const PLACES: readonly Place[] = Object.entries(BY_COUNTRY).flatMap(([country, rows]) =>
  rows.map(([name, lat, lng, timezone, alias]) => ({ name, country, lat, lng, timezone, ...(alias ? { alias: [alias] } : {}) })),
);

/** Lower case without accents, so "sao paulo" finds São Paulo and "lodz" Łódź. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ł/g, 'l').replace(/Ł/g, 'L').replace(/[’']/g, '').toLowerCase().trim();
}

const FOLDED = PLACES.map((place) => ({
  place,
  names: [place.name, ...(place.alias ?? [])].map(foldText),
  country: foldText(place.country),
}));

/**
 * Places matching what the user typed, best first: a name starting with it, then a word of the name,
 * then a name containing it, then places in a country starting with it. At most `limit` results.
 */
export function searchPlaces(query: string, limit = 8): Place[] {
  const q = foldText(query);
  if (q.length === 0) return [];
  const scored: { place: Place; score: number }[] = [];
  for (const entry of FOLDED) {
    let score = 0;
    for (const name of entry.names) {
      if (name === q) score = Math.max(score, 4);
      else if (name.startsWith(q)) score = Math.max(score, 3);
      else if (name.split(/[\s-]+/).some((word) => word.startsWith(q))) score = Math.max(score, 2);
      else if (q.length >= 3 && name.includes(q)) score = Math.max(score, 1);
    }
    if (score === 0 && q.length >= 3 && entry.country.startsWith(q)) score = 0.5;
    if (score > 0) scored.push({ place: entry.place, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.place.name.localeCompare(b.place.name))
    .slice(0, limit)
    .map((s) => s.place);
}

/** "Berlin, Germany": how a chosen place is written into the address field. */
export function placeLabel(place: Place): string {
  return `${place.name}, ${place.country}`;
}

function canonicalZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * The entry of the server's zone list naming the same zone: the same name when the list has it (the
 * server lists every IANA name, Asia/Kolkata as well as Asia/Calcutta), else another spelling of it
 * (Asia/Calcutta for Asia/Kolkata, Europe/Kiev for Europe/Kyiv), which the runtime canonicalises alike.
 */
export function matchTimeZone(zone: string, available: readonly string[]): string | undefined {
  if (available.includes(zone)) return zone;
  const canonical = canonicalZone(zone);
  if (!canonical) return undefined;
  return available.find((candidate) => candidate === canonical || canonicalZone(candidate) === canonical);
}
